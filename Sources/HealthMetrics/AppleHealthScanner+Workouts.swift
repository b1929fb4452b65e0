import Foundation
import MorningProofCore

/// `<Workout>` and `<ActivitySummary>` tags: rarer than records, so kept apart from the hot path.
extension AppleHealthScanner {
    mutating func workout(_ tag: XMLTag, at offset: Int64) {
        var activity = "", source = -1
        var start: Double?, end: Double?, duration: Double?
        var durationUnit = "min"
        let wellFormed = tag.forEachAttribute { n, nl, v, vl in
            if tag.equals(n, nl, "workoutActivityType") {
                activity = ActivityNames.normalized(tag.string(v, vl))
            } else if tag.equals(n, nl, "sourceName") {
                source = intern(tag, v, vl)
            } else if tag.equals(n, nl, "startDate") {
                start = HealthDate.seconds(tag.bytes(v, vl))
            } else if tag.equals(n, nl, "endDate") {
                end = HealthDate.seconds(tag.bytes(v, vl))
            } else if tag.equals(n, nl, "duration") {
                duration = tag.number(v, vl)
            } else if tag.equals(n, nl, "durationUnit") {
                durationUnit = tag.string(v, vl)
            }
            return true
        }
        guard wellFormed, let start, let end, end >= start else {
            return warn(offset, "a Workout without readable start and end dates was skipped")
        }
        if source < 0 { source = internName("unknown") }
        let minutes =
            duration.flatMap { d in MetricUnits.durationFactor(durationUnit).map { d * $0 } } ?? (end - start) / 60
        guard end - start <= HealthMetric.maximumIntervalSeconds else { return tooLong(offset, start, end) }
        if let problem = HealthMetric.workoutMinutes.implausibility(of: minutes) {
            return warn(offset, "a Workout was skipped: \(problem)")
        }
        totals.addWorkout(source: Int32(source), start: start, end: end, minutes: minutes, activity: activity)
    }

    mutating func activitySummary(_ tag: XMLTag, at offset: Int64) {
        var day: LocalDay?
        var energy: Double?, energyUnit = "kcal", exercise: Double?
        _ = tag.forEachAttribute { n, nl, v, vl in
            if tag.equals(n, nl, "dateComponents") {
                if case .day(let d) = HealthDate.parse(tag.bytes(v, vl)) { day = d }
            } else if tag.equals(n, nl, "activeEnergyBurned") {
                energy = tag.number(v, vl)
            } else if tag.equals(n, nl, "activeEnergyBurnedUnit") {
                energyUnit = tag.string(v, vl)
            } else if tag.equals(n, nl, "appleExerciseTime") {
                exercise = tag.number(v, vl)
            }
            return true
        }
        guard let day else { return warn(offset, "an ActivitySummary without a dateComponents day was skipped") }
        let source = Int32(internName("Activity Summary"))
        if let energy, energy != 0, let factor = MetricUnits.factor(from: energyUnit, to: .activeEnergy) {
            if let problem = HealthMetric.activeEnergy.implausibility(of: energy * factor) {
                warn(offset, "an ActivitySummary's energy was skipped: \(problem)")
            } else {
                totals.add(.activeEnergy, source: source, day: day, value: energy * factor)
            }
        }
        if let exercise, exercise != 0 {
            if let problem = HealthMetric.exerciseMinutes.implausibility(of: exercise) {
                warn(offset, "an ActivitySummary's exercise time was skipped: \(problem)")
            } else {
                totals.add(.exerciseMinutes, source: source, day: day, value: exercise)
            }
        }
    }
}
