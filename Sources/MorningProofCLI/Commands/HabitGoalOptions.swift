import MorningProofCore

extension HabitDetailOptions {
    /// The goal these options describe on top of `current` (nil when no goal option was given).
    func goal(current: MetricGoal?) throws -> MetricGoal? {
        guard hasGoal else { return current }
        if let kind, kind != .metric {
            throw MorningProofError.usage(
                "a goal (--metric, --at-least, --at-most) needs --kind metric, not \(kind.rawValue)")
        }
        guard let name = metric ?? current?.metric else {
            throw MorningProofError.usage(
                "--at-least, --at-most and --activity need --metric (metrics: \(HealthMetric.knownNames))")
        }
        guard let goalMetric = HealthMetric(name: name) else {
            throw MorningProofError.usage("unknown metric \"\(name)\" (metrics: \(HealthMetric.knownNames))")
        }
        if atLeast != nil && atMost != nil {
            throw MorningProofError.usage("give --at-least or --at-most, not both")
        }
        var goal: MetricGoal
        if let text = atLeast ?? atMost {
            goal = MetricGoal(
                metric: goalMetric.rawValue, comparison: atLeast != nil ? .atLeast : .atMost,
                target: try GoalTarget.parse(text, for: goalMetric), activity: current?.activity)
        } else if let current, current.metric == goalMetric.rawValue {
            goal = current
        } else {
            throw MorningProofError.usage(
                "--metric \(goalMetric.rawValue) needs a target: --at-least or --at-most, such as --at-least \(Self.example(goalMetric))"
            )
        }
        if let activity {
            guard [.workouts, .workoutMinutes].contains(goalMetric) || activity.isEmpty else {
                throw MorningProofError.usage("--activity applies to --metric workouts or workoutMinutes only")
            }
            goal.activity = activity.isEmpty ? nil : activity.lowercased()
        } else if goal.metric != current?.metric {
            goal.activity = nil
        }
        return goal
    }

    static func example(_ metric: HealthMetric) -> String {
        switch metric.dimension {
        case .count: metric == .steps ? "8000" : "1"
        case .duration: metric == .sleep ? "7h" : "30min"
        case .energy: "500kcal"
        case .length: "5km"
        }
    }
}
