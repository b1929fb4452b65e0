import MorningProofCore

/// How the API words what a library's error names: each input as its JSON field or query
/// parameter (`"remindAt"`), each hint as the request that follows it. No CLI option ever.
struct FieldWording: ErrorPhrasing {
    func name(_ field: InputField, value: String?) -> String {
        // A habit's name, new or changed, is `name` in both POST and PATCH.
        let name = "\"\(field == .rename ? InputField.name.rawValue : field.rawValue)\""
        return value.map { "\(name): \($0)" } ?? name
    }

    func settings(_ settings: [(InputField, String)]) -> String {
        settings.map { name($0.0, value: $0.1) }.joined(separator: ", ")
    }

    func hint(_ hint: ErrorHint) -> String {
        switch hint {
        case .setUpCheckin: ": POST /api/checkin/setup first"
        case .proveWithPhoto(_, let id): "; prove it with a photo of today: POST /api/habits/\(id)/proof"
        default: NeutralPhrasing().hint(hint)
        }
    }

    /// The message of `error` as an API client reads it.
    static func message(_ error: MorningProofError) -> String { error.text.rendered(by: FieldWording()) }
}
