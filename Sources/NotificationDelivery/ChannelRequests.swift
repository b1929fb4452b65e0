import Crypto
import Foundation
import MorningProofService
import MorningProofStoreContract

/// One HTTP request to a channel, before it is sent: the headers and body each channel's rules give.
struct ChannelRequest: Sendable {
    var headers: [(String, String)]
    var body: Data
}

/// What ntfy is sent: the sentence as the body, `Title`, `Tags`, `Click` and the access token.
enum NtfyRequest {
    static func make(_ event: NotificationEvent, channel: NtfyChannel, clickURL: String?) -> ChannelRequest {
        var headers = [
            ("Content-Type", "text/plain; charset=utf-8"),
            ("Title", HeaderText.encoded(PushMessage.title(of: event))),
            ("Tags", tag(for: event.event)),
        ]
        if let clickURL, let click = HeaderText.singleLine(clickURL) { headers.append(("Click", click)) }
        if let token = channel.token, let bearer = HeaderText.singleLine(token) {
            headers.append(("Authorization", "Bearer \(bearer)"))
        }
        return ChannelRequest(headers: headers, body: Data(event.message.utf8))
    }

    /// ntfy's emoji tag for each kind of event.
    static func tag(for kind: NotificationEvent.Kind) -> String {
        switch kind {
        case .goalMet: "white_check_mark"
        case .reminder: "alarm_clock"
        case .test: "test_tube"
        }
    }
}

/// What a webhook is sent: the event's JSON, its kind, and the HMAC-SHA256 of the body.
public enum WebhookRequest {
    /// The signature header's value for `body` under `secret`: `sha256=<lowercase hex>`.
    public static func signature(of body: Data, secret: String) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: body, using: SymmetricKey(data: Data(secret.utf8)))
        return "sha256=" + mac.map { String(format: "%02x", $0) }.joined()
    }

    static func make(_ event: NotificationEvent, channel: WebhookChannel) -> ChannelRequest {
        let body = Data(event.json().utf8)
        return ChannelRequest(
            headers: [
                ("Content-Type", "application/json"),
                ("X-MorningProof-Event", event.event.rawValue),
                ("X-MorningProof-Signature", signature(of: body, secret: channel.secret)),
            ], body: body)
    }
}

/// Header values from text a person wrote: one line, and non-ASCII as RFC 2047 words.
enum HeaderText {
    /// `text` as a header value: printable ASCII as it is (control characters, CR and LF become
    /// spaces), anything else as `=?UTF-8?B?...?=`, which ntfy decodes.
    static func encoded(_ text: String) -> String {
        let line = String(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : Character($0) })
        guard line.unicodeScalars.contains(where: { !$0.isASCII }) else { return line }
        return "=?UTF-8?B?\(Data(line.utf8).base64EncodedString())?="
    }

    /// `text` when it is one line of printable ASCII (a URL or a token), else nil: such a value is
    /// never rewritten, it is left out.
    static func singleLine(_ text: String) -> String? {
        let clean = text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
        return clean && !text.isEmpty ? text : nil
    }
}
