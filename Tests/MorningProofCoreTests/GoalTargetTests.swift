import MorningProofCore
import Testing

@Suite struct GoalTargetTests {
    @Test func readsTargetsInAPersonsUnits() throws {
        #expect(try GoalTarget.parse("8000", for: .steps) == 8000)
        #expect(try GoalTarget.parse("8,000", for: .steps) == 8000)
        #expect(try GoalTarget.parse("7h", for: .sleep) == 420)
        #expect(try GoalTarget.parse("7h30m", for: .sleep) == 450)
        #expect(try GoalTarget.parse("7h30", for: .sleep) == 450)
        #expect(try GoalTarget.parse("7.5 hours", for: .sleep) == 450)
        #expect(try GoalTarget.parse("30min", for: .exerciseMinutes) == 30)
        #expect(try GoalTarget.parse("420", for: .sleep) == 420)
        #expect(try GoalTarget.parse("5km", for: .distance) == 5)
        #expect(abs(try GoalTarget.parse("3mi", for: .distance) - 4.828032) < 1e-9)
        #expect(try GoalTarget.parse("500kcal", for: .activeEnergy) == 500)
        #expect(abs(try GoalTarget.parse("2092kJ", for: .activeEnergy) - 500) < 1e-9)
        #expect(try GoalTarget.parse("1", for: .workouts) == 1)
    }

    @Test func refusesUnitsOfTheWrongKind() {
        for (text, metric) in [
            ("7h", HealthMetric.steps), ("5km", .sleep), ("500kcal", .distance), ("abc", .steps), ("", .steps),
            ("3h2km", .sleep), ("5km3", .distance), ("-5", .steps),
        ] {
            #expect(throws: MorningProofError.self, "\(text) for \(metric)") { try GoalTarget.parse(text, for: metric) }
        }
    }

    @Test func namesMetricsInAnyCase() {
        #expect(HealthMetric(name: "activeenergy") == .activeEnergy)
        #expect(HealthMetric(name: "Steps") == .steps)
        #expect(HealthMetric(name: "screen") == nil)
    }

    @Test func saysGoalsInWords() {
        #expect(MetricGoal(metric: "steps", comparison: .atLeast, target: 8000).summary == "at least 8,000 steps")
        #expect(MetricGoal(metric: "sleep", comparison: .atLeast, target: 450).summary == "at least 7 h 30 min")
        #expect(
            MetricGoal(metric: "workouts", comparison: .atLeast, target: 1, activity: "running").summary
                == "at least 1 workout (running)")
        #expect(MetricGoal(metric: "distance", comparison: .atMost, target: 5.25).summary == "at most 5.3 km")
    }

    @Test func readsIntervals() {
        #expect(IntervalText.seconds("30s") == 30)
        #expect(IntervalText.seconds("5m") == 300)
        #expect(IntervalText.seconds("1h") == 3600)
        #expect(IntervalText.seconds("90") == 90)
        #expect(IntervalText.seconds("0s") == nil)
        #expect(IntervalText.seconds("soon") == nil)
        #expect(IntervalText.seconds("5 parsecs") == nil)
    }
}
