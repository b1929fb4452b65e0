import Foundation

/// Which habit a person means by a name they typed: the habit with exactly that name in any case,
/// else the one habit whose name starts with it.
public enum HabitNameMatch: Equatable, Sendable {
    case found(Habit)
    /// No habit's name is or starts with the text.
    case none
    /// Several habits' names start with the text.
    case ambiguous([Habit])

    /// The habit among `habits` that `text` names.
    public static func of(_ text: String, among habits: [Habit]) -> HabitNameMatch {
        if let exact = habits.first(where: { $0.name.caseInsensitiveCompare(text) == .orderedSame }) {
            return .found(exact)
        }
        let lower = text.lowercased()
        let matches = habits.filter { $0.name.lowercased().hasPrefix(lower) }
        switch matches.count {
        case 0: return .none
        case 1: return .found(matches[0])
        default: return .ambiguous(matches)
        }
    }

    /// A habit needs a name that shows something: `UserText.isBlank`, the rule for every name.
    public static func isBlank(_ name: String) -> Bool {
        UserText.isBlank(name)
    }
}
