import Foundation

/// A detail an edit can remove (`"remindAt": null` over HTTP): what is not given is kept instead.
public enum ClearableDetail: String, Sendable, Hashable, CaseIterable {
    case remindAt, note, goal, activity
}

/// A habit's details as a person gives them (`habit add`/`habit edit` options, or the fields of an HTTP
/// request), in words: every rule that turns them into a `Habit` lives here. Nil means "not given".
public struct HabitDetails: Sendable, Equatable {
    public var kind: HabitKind?
    /// Due every N days.
    public var every: Int?
    /// Due K times in each `per` (week|month), or in any `within` days.
    public var times: Int?
    public var per: String?
    public var within: Int?
    /// `HH:MM`, local time.
    public var remindAt: String?
    public var required: Bool?
    /// A note; empty clears it on an edit.
    public var note: String?
    /// The goal: a metric name and at most one of `atLeast`/`atMost` (`8000`, `7h30m`, `5km`).
    public var metric: String?
    public var atLeast: String?
    public var atMost: String?
    /// Only workouts of this activity count; empty clears it on an edit.
    public var activity: String?
    /// Details an edit removes; a new habit has none of them anyway. Clearing the goal of a habit
    /// that stays a metric habit is refused: it needs one.
    public var clearing: Set<ClearableDetail> = []

    public init(
        kind: HabitKind? = nil, every: Int? = nil, times: Int? = nil, per: String? = nil, within: Int? = nil,
        remindAt: String? = nil, required: Bool? = nil, note: String? = nil, metric: String? = nil,
        atLeast: String? = nil, atMost: String? = nil, activity: String? = nil
    ) {
        self.kind = kind
        self.every = every
        self.times = times
        self.per = per
        self.within = within
        self.remindAt = remindAt
        self.required = required
        self.note = note
        self.metric = metric
        self.atLeast = atLeast
        self.atMost = atMost
        self.activity = activity
    }

    public var hasSchedule: Bool { every != nil || times != nil || per != nil || within != nil }
    public var hasGoal: Bool { metric != nil || atLeast != nil || atMost != nil || activity != nil }

    /// The schedule the options describe (daily when none is given).
    public func schedule() throws -> Schedule {
        try Schedule.from(every: every, times: times, per: per, within: within)
    }

    /// The reminder in minutes after midnight, or nil when none is given.
    public func reminder() throws -> Int? {
        guard let remindAt else { return nil }
        guard let minutes = parseClockTime(remindAt) else {
            throw MorningProofError.usage("bad \(field: .remindAt, "\"\(remindAt)\""): use HH:MM, such as 07:30")
        }
        return minutes
    }

    /// Checks every detail without a habit to apply them to: what `add` and `edit` refuse up front.
    public func validate() throws {
        if let note { try UserText.validate(note, field: .note, maxLength: UserText.noteMaxLength) }
        let given: [(ClearableDetail, InputField, Bool)] = [
            (.remindAt, .remindAt, remindAt != nil), (.note, .note, note != nil), (.goal, .metric, hasGoal),
            (.activity, .activity, activity != nil),
        ]
        for (detail, field, isGiven) in given where isGiven && clearing.contains(detail) {
            throw MorningProofError.usage("\(field: field) is cleared and given at once: do one or the other")
        }
        if hasSchedule { _ = try schedule() }
        _ = try reminder()
        if let metric, HealthMetric(name: metric) == nil {
            throw MorningProofError.usage("unknown metric \"\(metric)\" (metrics: \(HealthMetric.knownNames))")
        }
    }

    /// A new habit named `name`, created on `day` at `instant`: a goal makes it a metric habit, which
    /// needs one.
    public func newHabit(named name: String, createdDay day: LocalDay, at instant: Date) throws -> Habit {
        let (name, goal) = try checkedNew(named: name)
        return Habit(
            name: name, kind: goal != nil ? .metric : kind ?? .manual, schedule: try schedule(),
            remindAt: try reminder(), required: required ?? false, note: note, goal: goal, createdDay: day,
            createdAt: instant)
    }

    /// Checks what `newHabit` refuses, before there is a day to create the habit on.
    public func validateNew(named name: String) throws {
        _ = try checkedNew(named: name)
    }

    private func checkedNew(named name: String) throws -> (name: String, goal: MetricGoal?) {
        let name = try UserText.validate(name, field: .name, maxLength: UserText.habitNameMaxLength)
        try validate()
        let goal = try goal(current: nil)
        if kind == .metric && goal == nil { throw Self.metricNeedsGoal }
        return (name, goal)
    }

    /// `habit` with these details applied, and renamed when `rename` is given.
    public func applied(to habit: Habit, rename: String? = nil) throws -> Habit {
        var habit = habit
        if let rename {
            habit.name = try UserText.validate(rename, field: .rename, maxLength: UserText.habitNameMaxLength)
        }
        try validate()
        if let kind { habit.kind = kind }
        if clearing.contains(.goal) {
            habit.goal = nil
            if habit.kind == .metric { throw Self.metricNeedsGoal }
        } else if hasGoal {
            habit.goal = try goal(current: habit.goal)
            habit.kind = .metric
        } else if habit.kind != .metric {
            habit.goal = nil
        } else if habit.goal == nil {
            throw Self.metricNeedsGoal
        }
        if hasSchedule { habit.schedule = try schedule() }
        if let reminder = try reminder() { habit.remindAt = reminder }
        if clearing.contains(.remindAt) { habit.remindAt = nil }
        if let required { habit.required = required }
        if let note { habit.note = note.isEmpty ? nil : note }
        if clearing.contains(.note) { habit.note = nil }
        if clearing.contains(.activity) { habit.goal?.activity = nil }
        return habit
    }

    static let metricNeedsGoal = MorningProofError.usage(
        "a metric habit needs a goal, such as \(settings: (.metric, "steps"), (.atLeast, "8000")) (metrics: \(HealthMetric.knownNames))"
    )

    /// The goal these details give, starting from `current` (an edit keeps what is not given).
    public func goal(current: MetricGoal?) throws -> MetricGoal? {
        guard hasGoal else { return current }
        if let kind, kind != .metric {
            throw MorningProofError.usage(
                "a goal (\(field: .metric), \(field: .atLeast), \(field: .atMost)) needs \(field: .kind, "metric"), not \(kind.rawValue)"
            )
        }
        guard let name = metric ?? current?.metric else {
            throw MorningProofError.usage(
                "\(field: .atLeast), \(field: .atMost) and \(field: .activity) need \(field: .metric) (metrics: \(HealthMetric.knownNames))"
            )
        }
        guard let goalMetric = HealthMetric(name: name) else {
            throw MorningProofError.usage("unknown metric \"\(name)\" (metrics: \(HealthMetric.knownNames))")
        }
        if atLeast != nil && atMost != nil {
            throw MorningProofError.usage("give \(field: .atLeast) or \(field: .atMost), not both")
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
                "\(field: .metric, goalMetric.rawValue) needs a target: \(field: .atLeast) or \(field: .atMost), such as \(field: .atLeast, Self.example(goalMetric))"
            )
        }
        if let activity {
            guard [.workouts, .workoutMinutes].contains(goalMetric) || activity.isEmpty else {
                throw MorningProofError.usage(
                    "\(field: .activity) applies to \(field: .metric, "workouts") or workoutMinutes only")
            }
            goal.activity = activity.isEmpty ? nil : activity.lowercased()
        } else if goal.metric != current?.metric {
            goal.activity = nil
        }
        return goal
    }

    /// A target that suits `metric`, for messages.
    static func example(_ metric: HealthMetric) -> String {
        switch metric.dimension {
        case .count: metric == .steps ? "8000" : "1"
        case .duration: metric == .sleep ? "7h" : "30min"
        case .energy: "500kcal"
        case .length: "5km"
        }
    }
}
