extension AccountRules {
    /// A password chosen now (a change, a reset, the owner's sign-in) has at least this many
    /// characters; older ones signed up with `passwordMinLength` still sign in.
    public static let newPasswordMinLength = 10

    /// Nil when `password` can be an account's new password, else what is wrong with it: too short,
    /// too long, or the account's own email (in any case).
    public static func newPasswordProblem(_ password: String, email: String?) -> String? {
        let length = password.unicodeScalars.count
        if length < newPasswordMinLength {
            return "the new password needs at least \(newPasswordMinLength) characters"
        }
        if length > passwordMaxLength { return "the password can have at most \(passwordMaxLength) characters" }
        if let email, password.lowercased() == email.lowercased() {
            return "the new password cannot be the account's email"
        }
        return nil
    }
}
