import Foundation
import MorningProofCore
import MorningProofService
import MorningProofStoreContract

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `morningproof gate --server URL`: the gate of a server account, asked over HTTP with a gate
/// token (`MORNINGPROOF_GATE_TOKEN`, else the file `config gate.token-file` names). The answer is
/// kept in the cache folder; with no server reachable, an open answer holds until its
/// `nextChange` (the end of its day), and anything else is closed.
struct RemoteGate {
    static let serverKey = "gate.server"
    static let tokenFileKey = "gate.token-file"
    static let tokenVariable = "MORNINGPROOF_GATE_TOKEN"

    let server: String
    let token: String

    /// The server to ask (`--server`, else `config gate.server`) and its token; nil: ask the database.
    static func configured(server option: String?, settings: any SettingsStore) async throws -> RemoteGate? {
        var configured = option
        if configured == nil { configured = try await settings.setting(serverKey) }
        guard let server = configured, !server.isEmpty else { return nil }
        let base = server.hasSuffix("/") ? String(server.dropLast()) : server
        guard base.hasPrefix("http://") || base.hasPrefix("https://"), URL(string: base) != nil else {
            throw MorningProofError.usage("the gate's server must be an http:// or https:// URL, not \"\(server)\"")
        }
        if let token = ProcessInfo.processInfo.environment[tokenVariable], !token.isEmpty {
            return RemoteGate(server: base, token: token)
        }
        guard let path = try await settings.setting(tokenFileKey), !path.isEmpty else {
            throw MorningProofError.usage(
                "a gate token is needed for \(base): set \(tokenVariable), or config set \(tokenFileKey) PATH")
        }
        let text = try String(contentsOfFile: (path as NSString).expandingTildeInPath, encoding: .utf8)
        return RemoteGate(server: base, token: text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// The server's answer, or, when it cannot be reached, the last answer known (open only until
    /// its `nextChange`), else closed: (answer, nil) fresh, (cached or nil, problem) offline.
    func answer(now: Date) async throws -> (gate: GateJSON?, offline: String?) {
        guard let url = URL(string: server + "/api/gate") else { return (nil, "bad URL") }
        var request = URLRequest(url: url, timeoutInterval: 10)
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        do {
            let (data, response) = try await URLSession.shared.data(for: request)
            let status = (response as? HTTPURLResponse)?.statusCode ?? 0
            if status == 401 {
                throw MorningProofError.usage("\(server) refused the gate token (401): pair again or make a new one")
            }
            guard status == 200 else { return (cached(now: now), "\(server) answered \(status)") }
            let gate = try JSONDecoder().decode(GateJSON.self, from: data)
            try? data.write(to: cacheFile, options: .atomic)
            return (gate, nil)
        } catch let error as MorningProofError {
            throw error
        } catch {
            return (cached(now: now), "cannot reach \(server) (\(error.localizedDescription))")
        }
    }

    /// The last answer kept, while it still holds: open until its `nextChange`; closed otherwise.
    func cached(now: Date) -> GateJSON? {
        guard let data = try? Data(contentsOf: cacheFile),
            let gate = try? JSONDecoder().decode(GateJSON.self, from: data),
            gate.open, let until = gate.nextChange.flatMap({ try? ISOInstant.read($0, field: "nextChange") }),
            now < until
        else { return nil }
        return gate
    }

    /// `$XDG_CACHE_HOME/morningproof/gate-HASH.json` (`~/.cache` by default), one per server and token.
    var cacheFile: URL {
        let environment = ProcessInfo.processInfo.environment
        let base =
            environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: NSHomeDirectory()).appendingPathComponent(".cache")
        let folder = base.appendingPathComponent("morningproof")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let name = String(TokenSecret.hash(server + " " + token).prefix(16))
        return folder.appendingPathComponent("gate-\(name).json")
    }

    /// What `gate --server` prints: one line when open, what is left and the quote when closed.
    static func lines(_ gate: GateJSON) -> [String] {
        if gate.open {
            return ["The gate is open (\(gate.reason)). \(gate.excuseSentence)."]
        }
        var lines = [
            "The gate is closed for now: a little is left of this morning's routine.", "", "Still to do today:",
        ]
        lines += gate.pending.map { "  ○ \(UserText.visible($0.name))" }
        if gate.checkin == "unanswered" || gate.checkin == "no" { lines.append("  ○ the check-in") }
        lines += [
            "", "\u{201C}\(UserText.visible(gate.quote.text))\u{201D}",
            "  — \(UserText.visible(gate.quote.author)), \(UserText.visible(gate.quote.book))",
            "", "The gate opens by itself once these are done (\(gate.excuseSentence)).",
        ]
        return lines
    }
}
