import MorningProofCore

/// A habit's metric goal as scripts see it: the target in the metric's base unit.
struct GoalJSON: Encodable {
    var metric: String
    var comparison: String
    var target: Double
    var activity: String?
    var summary: String

    init(_ goal: MetricGoal) {
        metric = goal.metric
        comparison = goal.comparison.rawValue
        target = goal.target
        activity = goal.activity
        summary = goal.summary
    }
}
