import MorningProofCore

/// How the CLI words what a library's error names: each input as its option (`--remind-at`), each
/// hint as the command that follows it.
struct OptionWording: ErrorPhrasing {
    func name(_ field: InputField, value: String?) -> String {
        let option =
            switch field {
            case .name: "the habit name"
            case .within: "--in"
            case .remindAt: "--remind-at"
            case .atLeast: "--at-least"
            case .atMost: "--at-most"
            case .dayStart: "day-start"  // a setting (`config set day-start`), not an option
            case .startDay: "--since"
            default: "--" + field.rawValue
            }
        return value.map { "\(option) \($0)" } ?? option
    }

    func hint(_ hint: ErrorHint) -> String {
        switch hint {
        case .confirmRemoval(let habit):
            "; run again with --yes, or keep its history with: morningproof habit archive \"\(habit)\""
        case .setUpCheckin: "; create one with: morningproof checkin setup --preset faith (or --preset general)"
        case .photoHabitNeeded: "; --habit needs a habit of kind photo"
        case .listSources: " (see: morningproof source list)"
        case .mergeInstead(let count):
            " (without --no-merge the import merges into \(count == 1 ? "it" : "them"), keeping every day already recorded)"
        case .addHabit: "; add one with: morningproof habit add NAME"
        case .raisePixelLimit: " (raise it with --max-pixels if the photo is real)"
        case .proveWithPhoto(let habit, _): "; prove it with: morningproof verify PHOTO --habit \"\(habit)\""
        }
    }

    /// The message of `error` as the CLI prints it.
    static func message(_ error: MorningProofError) -> String { error.text.rendered(by: OptionWording()) }
}
