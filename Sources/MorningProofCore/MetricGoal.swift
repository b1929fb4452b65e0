/// A health goal of a metric habit: "at least 8000 steps", "at most 2 h of screen time".
public struct MetricGoal: Hashable, Sendable, Codable {
    public enum Comparison: String, Sendable, Codable {
        case atLeast, atMost
    }

    /// The metric's name as HealthMetrics knows it: steps, sleep, workouts, activeEnergy, ...
    public var metric: String
    public var comparison: Comparison
    /// The target in the metric's base unit (steps, minutes, kcal, km, count).
    public var target: Double
    /// For workouts: only this activity counts (`running`).
    public var activity: String?

    public init(metric: String, comparison: Comparison, target: Double, activity: String? = nil) {
        self.metric = metric
        self.comparison = comparison
        self.target = target
        self.activity = activity
    }

    /// Whether a day's value meets the goal.
    public func isMet(by value: Double) -> Bool {
        switch comparison {
        case .atLeast: value >= target
        case .atMost: value <= target
        }
    }
}
