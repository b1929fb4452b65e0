/// A health metric MorningProof totals per day, with its base unit.
/// The raw value is the name stored in the database and used by goals (`--metric steps`).
public enum HealthMetric: String, CaseIterable, Sendable, Codable {
    /// Steps (count).
    case steps
    /// Minutes asleep, counted for the wake day.
    case sleep
    /// Number of workouts that start on the day.
    case workouts
    /// Minutes of the workouts that start on the day.
    case workoutMinutes
    /// Active energy in kcal.
    case activeEnergy
    /// Walking and running distance in km.
    case distance
    /// Exercise minutes (Apple's green ring).
    case exerciseMinutes
    /// Mindful minutes.
    case mindfulMinutes

    /// Summed per source and day; the day's value is the largest source sum (or the preferred source's).
    public var isCumulative: Bool {
        switch self {
        case .steps, .activeEnergy, .distance, .exerciseMinutes, .mindfulMinutes: true
        case .sleep, .workouts, .workoutMinutes: false
        }
    }

    /// The most a person can plausibly reach in one day, in `baseUnit`: the one table of limits.
    /// A record above it, or a day's total of one source above it, is refused (it would meet
    /// or break a goal on a corrupt or mistyped number). Steps 200,000; any minutes 1,440 (a
    /// day); energy 20,000 kcal; distance 1,000 km; 100 workouts.
    public var maximumPerDay: Double {
        switch self {
        case .steps: 200_000
        case .sleep, .workoutMinutes, .exerciseMinutes, .mindfulMinutes: 1_440
        case .workouts: 100
        case .activeEnergy: 20_000
        case .distance: 1_000
        }
    }

    /// The longest interval a record may span, in seconds: a day.
    public static let maximumIntervalSeconds: Double = 86_400

    /// Why `value` (in `baseUnit`, for one record) cannot be true, or nil when it can.
    public func implausibility(of value: Double) -> String? {
        if value < 0 { return "negative \(rawValue) value \(Self.format(value))" }
        if value > maximumPerDay {
            return
                "\(rawValue) value \(Self.format(value)) is above the ceiling of \(Self.format(maximumPerDay)) \(baseUnit) a day"
        }
        return nil
    }

    /// A number as a message shows it: `-500`, `99999`, `1e+308`.
    public static func format(_ value: Double) -> String {
        abs(value) < 1e15 && value == value.rounded() ? String(Int64(value)) : String(value)
    }

    /// The base unit values are stored in.
    public var baseUnit: String {
        switch self {
        case .steps: "steps"
        case .sleep, .workoutMinutes, .exerciseMinutes, .mindfulMinutes: "min"
        case .workouts: "count"
        case .activeEnergy: "kcal"
        case .distance: "km"
        }
    }

    /// The field name in `metrics show --json`: unit-bearing names such as `distanceKm`.
    public var jsonKey: String {
        switch self {
        case .steps: "steps"
        case .sleep: "sleepMinutes"
        case .workouts: "workouts"
        case .workoutMinutes: "workoutMinutes"
        case .activeEnergy: "activeEnergyKcal"
        case .distance: "distanceKm"
        case .exerciseMinutes: "exerciseMinutes"
        case .mindfulMinutes: "mindfulMinutes"
        }
    }

    /// Parses a name as a person or a file writes it: `steps`, `step_count`, `active-energy`,
    /// `energy`, `exercise`, `mindful`, `workout`, `sleep_analysis`, `distance_walking_running`.
    public init?(name: String) {
        var key = name.lowercased().filter { $0 != "_" && $0 != "-" && $0 != " " }
        if let exact = HealthMetric.allCases.first(where: { $0.rawValue.lowercased() == key }) {
            self = exact
            return
        }
        if key.hasPrefix("hkquantitytypeidentifier") { key.removeFirst("hkquantitytypeidentifier".count) }
        if key.hasPrefix("hkcategorytypeidentifier") { key.removeFirst("hkcategorytypeidentifier".count) }
        switch key {
        case "step", "stepcount", "stepscount": self = .steps
        case "sleepanalysis", "sleepminutes", "asleep", "sleeptime": self = .sleep
        case "workout", "workoutcount": self = .workouts
        case "workouttime", "workoutduration": self = .workoutMinutes
        case "energy", "activeenergyburned", "activecalories", "activeenergykcal", "activekcal", "calories":
            self = .activeEnergy
        case "distancekm", "distancewalkingrunning", "walkingrunningdistance", "walkingdistance":
            self = .distance
        case "exercise", "exercisetime", "appleexercisetime", "exerciseminute": self = .exerciseMinutes
        case "mindful", "mindfulsession", "mindfulness", "mindfulminute": self = .mindfulMinutes
        default: return nil
        }
    }
}

/// Converts amounts written with a unit into a metric's base unit (km, kcal, minutes).
public enum MetricUnits {
    /// The factor from `unit` to the base unit of `metric`, or nil when the unit does not fit it.
    /// An empty or absent unit means the base unit.
    public static func factor(from unit: String?, to metric: HealthMetric) -> Double? {
        let u = (unit ?? "").lowercased().trimmingCharacters(in: .whitespaces)
        switch metric {
        case .steps, .workouts:
            return ["", "count", "steps", "step", "workouts", "workout"].contains(u) ? 1 : nil
        case .distance:
            switch u {
            case "", "km", "kilometer", "kilometers", "kilometre", "kilometres": return 1
            case "m", "meter", "meters", "metre", "metres": return 0.001
            case "mi", "mile", "miles": return 1.609_344
            case "ft", "foot", "feet": return 0.000_304_8
            case "yd", "yard", "yards": return 0.000_914_4
            default: return nil
            }
        case .activeEnergy:
            switch u {
            case "", "kcal", "cal", "calories", "kilocalories", "kilocalorie": return 1
            case "kj", "kilojoule", "kilojoules": return 1 / 4.184
            case "j", "joule", "joules": return 1 / 4184
            default: return nil
            }
        case .sleep, .workoutMinutes, .exerciseMinutes, .mindfulMinutes:
            return durationFactor(u)
        }
    }

    /// Minutes per unit of time: `min`, `h`/`hr`, `s`.
    public static func durationFactor(_ unit: String) -> Double? {
        switch unit.lowercased() {
        case "", "min", "mins", "minute", "minutes", "m": 1
        case "h", "hr", "hrs", "hour", "hours": 60
        case "s", "sec", "secs", "second", "seconds": 1.0 / 60
        case "ms": 1.0 / 60_000
        case "d", "day", "days": 1440
        default: nil
        }
    }

    /// Parses an amount such as `8000`, `7h`, `7.5 h`, `90min`, `5km`, `3 mi`, `2000 kJ` into the
    /// base unit of `metric`; nil when the number or the unit does not fit.
    public static func parseAmount(_ text: String, for metric: HealthMetric) -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: ",", with: "")
        let numberEnd = trimmed.firstIndex { !($0.isNumber || $0 == "." || $0 == "-" || $0 == "+") } ?? trimmed.endIndex
        guard let number = Double(trimmed[..<numberEnd]), number.isFinite else { return nil }
        let unit = trimmed[numberEnd...].trimmingCharacters(in: .whitespaces)
        guard let factor = factor(from: unit, to: metric) else { return nil }
        return number * factor
    }
}
