import Foundation
import Glibc
import MorningProofPostgres
import MorningProofSQLite
import MorningProofStoreContract
import MorningProofTestSupport
import Testing

/// Database URLs and an unreachable server: no PostgreSQL needed.
@Suite struct PostgresURLTests {
    @Test func readsEveryPartOfAURL() throws {
        let url = try PostgresURL("postgresql://mp%40app:s%3Acret@db.example.com:6543/morningproof?sslmode=require")
        #expect(url.user == "mp@app" && url.password == "s:cret")
        #expect(url.host == "db.example.com" && url.port == 6543 && url.database == "morningproof")
        #expect(url.tls == .require)
        #expect(url.description == "db.example.com:6543/morningproof")
        let plain = try PostgresURL("postgres://mp@localhost/mp")
        #expect(plain.port == 5432 && plain.password == nil && plain.tls == .prefer)
    }

    @Test(arguments: [
        ("mysql://u@h/db", "the scheme is mysql://"),
        ("postgres://h:5432/db", "no user"),
        ("postgres://u:secret@h:5432", "no database name"),
        ("postgres://u:secret@h:5432/db?sslmode=maybe", "unknown option sslmode=maybe"),
        ("postgres://u:secret@h:5432/db?timeout=3", "unknown option timeout=3"),
        ("just words", "not a URL"),
    ])
    func refusesWhatIsNotAPostgreSQLDatabase(text: String, problem: String) throws {
        let error = #expect(throws: StoreError.self) { try PostgresURL(text) }
        #expect(error?.code == .invalid)
        #expect(error?.message.contains(problem) == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("secret") == false)
        #expect(error?.message.contains("postgres://USER") == true)
    }

    @Test func aServerThatIsNotThereIsUnavailable() async throws {
        let port = try Self.closedPort()
        let store = try PostgresStore(url: "postgres://mp:secret@127.0.0.1:\(port)/mp", poolSize: 1)
        let error = await #expect(throws: StoreError.self) { try await store.migrate() }
        #expect(error?.code == .unavailable)
        #expect(error?.value == "127.0.0.1:\(port)/mp")
        #expect(
            error?.message
                == "cannot connect to PostgreSQL at 127.0.0.1:\(port)/mp (Connection refused): check that the server "
                + "is running and that the host and port in the database URL are right")
        #expect(error?.message.contains("secret") == false)
    }

    /// A loopback port that nothing listens on: bound, read, and closed again.
    static func closedPort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        try #require(bound)
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
