import ArgumentParser
import Foundation
import MorningProofCore
import MorningProofServer
import MorningProofService

/// `serve --smtp-url --mail-from`: where password-reset links are mailed from (issue 41).
struct MailOptions: ParsableArguments {
    @Option(
        name: .customLong("smtp-url"),
        help: ArgumentHelp(
            "Mail password-reset links (\"Forgot password?\") through this SMTP server: "
                + "smtp://USER:PASSWORD@HOST:PORT (STARTTLS when offered) or smtps://... (TLS); needs "
                + "--mail-from and --public-url (default: MORNINGPROOF_SMTP_URL).",
            valueName: "url"))
    var smtpURL: String?

    @Option(
        name: .customLong("mail-from"),
        help: ArgumentHelp("The address those mails come from, such as morningproof@example.com.", valueName: "address")
    )
    var mailFrom: String?

    func validate() throws {
        _ = try mailer(publicURL: "https://checked.example")
    }

    /// The mailer, or nil without --smtp-url; a usage error when half of it is given.
    func mailer(publicURL: String?) throws -> SMTPMailer? {
        let url =
            smtpURL ?? ProcessInfo.processInfo.environment["MORNINGPROOF_SMTP_URL"].flatMap { $0.isEmpty ? nil : $0 }
        guard let url else {
            if mailFrom != nil { throw ValidationError("--mail-from needs --smtp-url") }
            return nil
        }
        guard let mailFrom else { throw ValidationError("--smtp-url needs --mail-from ADDRESS") }
        guard publicURL != nil else {
            throw ValidationError("--smtp-url needs --public-url: the links it mails point there")
        }
        do {
            return try SMTPMailer(server: SMTPServer(url: url), from: mailFrom)
        } catch let error as MorningProofError {
            throw ValidationError(error.message)
        }
    }
}
