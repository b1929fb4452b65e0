import Foundation
import MorningProofCore
import MorningProofStoreContract
import PostgresNIO

/// The statements every request runs, prepared once per connection (postgres-nio names them and
/// prepares each on a connection's first use): PostgreSQL then parses them once and, after a few
/// runs, plans them once too, where an unnamed statement is parsed and planned on every request
/// (a third of a status request's time in PostgreSQL). Their SQL is fixed; what varies is bound.
/// Each also gives its `query`, for the plan tests' `EXPLAIN` (`PostgresPlanTests`).
extension PostgresStore {
    /// The account an unexpired token of one of some scopes signs in (a hot query).
    struct TokenAccountStatement: TokenStatement {
        static let name = "morningproof_token_account"
        static let sql = """
            SELECT \(profileColumns) FROM api_token JOIN account ON account.id = api_token.accountId
            WHERE api_token.tokenHash = $1 AND (api_token.expiresAt IS NULL OR api_token.expiresAt > $2)
                AND api_token.scope = ANY($3::text[]) AND account.disabledAt IS NULL
            """
        var tokenHash: String
        var now: Date
        var scopes: [String]
    }

    /// The summary's first statement: the token's account, its update days (as day numbers) and
    /// whether it travelled (a hot query: the API's most frequent read).
    struct SummaryStatement: TokenStatement {
        static let name = "morningproof_summary"
        static let sql = """
            SELECT \(profileColumns),
                ARRAY(SELECT day::date - DATE '1970-01-01' FROM daily_update
                      WHERE daily_update.accountId = account.id ORDER BY day),
                EXISTS (SELECT 1 FROM zoneChange WHERE zoneChange.accountId = account.id)
            FROM api_token JOIN account ON account.id = api_token.accountId
            WHERE api_token.tokenHash = $1 AND (api_token.expiresAt IS NULL OR api_token.expiresAt > $2)
                AND api_token.scope = ANY($3::text[]) AND account.disabledAt IS NULL
            """
        var tokenHash: String
        var now: Date
        var scopes: [String]
    }

    /// Status in one statement, its own snapshot: the account's active habits in the person's order
    /// (`habitOrder`), each with the account's zone, day start and week start, whether it has zone
    /// changes, the habit's stored state and note, its entry of the day, and its recorded days from `since`
    /// on: the day after the stored state's last day, less the days a summary resumed from it can
    /// read back (`HabitTimeline.resumeSpan`, bound per schedule as stored, `fallbackSpan` for
    /// another), as day numbers times two plus one for done (a hot query).
    struct TodayStatement: PostgresPreparedStatement {
        static let name = "morningproof_today"
        static let sql = """
            SELECT \(qualified(habitColumns, as: "habit")), account.timeZone, account.dayStart, account.weekStart,
                EXISTS (SELECT 1 FROM zoneChange WHERE zoneChange.accountId = account.id),
                \(stateColumns), d.day, \(qualified(entryColumns, as: "e")),
                reach.since - DATE '1970-01-01',
                ARRAY(SELECT (recent.day::date - DATE '1970-01-01') * 2 + (recent.status = 'done')::int
                      FROM entry recent
                      WHERE recent.habitId = habit.id AND recent.day >= to_char(reach.since, 'YYYY-MM-DD')
                      ORDER BY recent.day)
            FROM account JOIN habit ON habit.accountId = account.id AND NOT habit.archived
            LEFT JOIN habitState s ON s.habitId = habit.id
            LEFT JOIN habitStateDirty d ON d.habitId = habit.id
            LEFT JOIN entry e ON e.habitId = habit.id AND e.day = $2
            CROSS JOIN LATERAL (
                SELECT s.through::date + 1 - coalesce(
                    (SELECT hint.span FROM unnest($3::text[], $4::int[]) AS hint (schedule, span)
                     WHERE hint.schedule = habit.schedule LIMIT 1),
                    $5::int) AS since
            ) AS reach
            WHERE account.id = $1
            ORDER BY \(habitOrder)
            """
        typealias Row = PostgresRow

        var accountID: Int64
        var day: LocalDay
        /// The span of each schedule (as stored) seen so far.
        var spans: [String: Int32]

        /// The span of a schedule not yet seen: a monthly habit's, the longest of the usual ones.
        static let fallbackSpan: Int32 = 90

        func makeBindings() -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 5)
            bindings.append(accountID)
            bindings.append(day.description)
            bindings.append(Array(spans.keys))
            bindings.append(Array(spans.values))
            bindings.append(Self.fallbackSpan)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> PostgresRow { row }

        var query: PostgresQuery { PostgresQuery(unsafeSQL: Self.sql, binds: makeBindings()) }
    }
}

/// The span of each schedule (as stored) that the store has read: what `TodayStatement` binds, so
/// that it reads no more days than a summary can need. Shared by every scoped copy of a store; a
/// hint only (a day short of it makes a read take the longer way), so bounded by clearing it.
final class ScheduleSpans: Sendable {
    private let spans = Locked<[String: Int32]>([:])
    static let limit = 1_000

    var all: [String: Int32] { spans.withLock { $0 } }

    /// Remembers the span of `schedule`, stored as `text`.
    func note(_ text: String, _ schedule: Schedule) {
        spans.withLock { spans in
            guard spans[text] == nil else { return }
            if spans.count >= Self.limit { spans.removeAll() }
            spans[text] = Int32(clamping: HabitTimeline.resumeSpan(of: schedule))
        }
    }
}

/// A statement bound to what signs a request in: a token's hash, the instant it must be unexpired
/// at, and the scopes it may have ($1, $2, $3).
protocol TokenStatement: PostgresPreparedStatement where Row == PostgresRow {
    var tokenHash: String { get }
    var now: Date { get }
    var scopes: [String] { get }
}

extension TokenStatement {
    /// The token's hash, the instant and the scopes, in that order.
    var bindings: PostgresBindings {
        var bindings = PostgresBindings(capacity: 3)
        bindings.append(tokenHash)
        bindings.append(now)
        bindings.append(scopes)
        return bindings
    }

    func makeBindings() -> PostgresBindings { bindings }

    func decodeRow(_ row: PostgresRow) throws -> PostgresRow { row }

    /// The statement as an unnamed query, for the plan tests' `EXPLAIN`.
    var query: PostgresQuery { PostgresQuery(unsafeSQL: Self.sql, binds: bindings) }
}
