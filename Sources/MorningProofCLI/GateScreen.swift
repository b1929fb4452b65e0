import Foundation
import MorningProofCore
import MorningProofService

/// The gate as of a session: the decision, and what the block screen shows.
struct GateScreen {
    let decision: GateDecision
    let checkin: Checkin?
    let quote: QuoteJSON
    let excuses: ExcuseStanding

    init(_ gate: GateState) {
        decision = gate.decision
        checkin = gate.checkin
        quote = QuoteJSON(gate.quote, book: gate.book)
        excuses = gate.excuses
    }

    /// `gate --json`.
    struct JSON: Encodable {
        struct Pending: Encodable {
            var name: String
            var state: String
        }
        var day: String
        var open: Bool
        var routineDone: Bool
        var unlocked: Bool
        var unlockReason: String?
        var pending: [Pending]
        var checkin: String
        var question: String?
        var verse: String?
        var suggestions: [String]
        var quote: QuoteJSON
        var excusesLeft: Int
        var excuseBackOn: String?
    }

    func json(day: LocalDay) -> JSON {
        JSON(
            day: day.description, open: decision.isOpen, routineDone: decision.routineDone,
            unlocked: decision.unlockReason != nil, unlockReason: decision.unlockReason,
            pending: decision.pendingHabits.map { .init(name: $0.name, state: $0.state.rawValue) },
            checkin: decision.checkin.rawValue, question: checkin?.texts.question,
            verse: checkin.map(\.texts.verse).flatMap { $0.isEmpty ? nil : $0 },
            suggestions: checkin?.texts.suggestions ?? [], quote: quote, excusesLeft: excuses.left,
            excuseBackOn: excuses.backOn?.description)
    }

    /// One line for an open gate: why it is open, in words that never call a skip done, and the
    /// excuses left (issue 39).
    var openLine: String {
        let left = "\(excuses.sentence)."
        if decision.routineDone {
            let excused = decision.excusedHabits.map {
                "\(UserText.visible($0.name)) \($0.state == .skipped ? "skipped" : "on a travel day")"
            }
            if excused.isEmpty { return "The gate is open. Well done: this morning's routine is complete. \(left)" }
            return "The gate is open: nothing required is left today (\(excused.joined(separator: ", "))). \(left)"
        }
        if let reason = decision.unlockReason {
            return "The gate is open: unlocked for today (\(UserText.visible(reason))). \(left)"
        }
        switch decision.lift {
        case .cutoff: return "The gate is open: past today's cutoff. \(left)"
        case .off: return "The gate is open: the shield is off today. \(left)"
        case nil: return "The gate is open. \(left)"
        }
    }

    /// The block screen: what is still missing, the verse, the quote of the moment and the suggestions,
    /// in calm words.
    var blockScreen: [String] {
        var lines = ["The gate is closed for now: a little is left of this morning's routine.", ""]
        lines.append("Still to do today:")
        switch decision.checkin {
        case .unanswered:
            lines.append("  ○ the check-in: \(UserText.visible(checkin?.texts.question ?? ""))")
            lines.append("      answer with: morningproof checkin")
        case .no:
            lines.append("  ○ the check-in: \(UserText.visible(checkin?.texts.question ?? "")) (answered no so far)")
            lines.append("      when you have done it: morningproof checkin yes")
        case .yes, .none: break
        }
        for pending in decision.pendingHabits {
            let name = UserText.visible(pending.name)
            lines.append("  ○ \(name)")
            // A photo habit is done only by a photo (issue 39): `done` would be refused.
            lines.append(
                pending.kind == .photo
                    ? "      prove it with a photo: morningproof verify PHOTO --habit \"\(name)\""
                    : "      when it is done: morningproof done \"\(name)\"")
        }
        if let verse = checkin?.texts.verse, !verse.isEmpty {
            lines += ["", UserText.visible(verse, keepingNewlines: true)]
        }
        lines += [""] + quote.lines
        if let suggestions = checkin?.texts.suggestions, !suggestions.isEmpty,
            decision.checkin == .unanswered || decision.checkin == .no
        {
            lines += ["", "Some ways to begin:"] + suggestions.map { "  • \(UserText.visible($0))" }
        }
        lines += [
            "", "The gate opens by itself once these are done.",
            "If today truly cannot wait: morningproof gate unlock --reason \"...\" (\(excuses.sentence)).",
        ]
        return lines
    }
}

extension Session {
    /// The gate use cases on this session's database and clock.
    var gate: GateService { GateService(database: database, clock: clock) }

    /// The gate now, for the screen.
    func gateScreen() async throws -> GateScreen {
        let state = try await gate.state(now: now)
        state.warnAboutQuotes()
        return GateScreen(state)
    }
}

extension GateState {
    /// Says on stderr that the configured quotes file could not be used, when it could not.
    func warnAboutQuotes() {
        if let quoteProblem { Console.error("morningproof: \(quoteProblem)") }
    }
}
