import Foundation
import MorningProofStoreContract
import PostgresNIO

/// Where a PostgreSQL database is and how to sign in: parsed from
/// `postgres://user[:password]@host[:port]/database[?sslmode=disable|prefer|require]`
/// (`postgresql://` too; port 5432 when left out; user and password percent-decoded).
public struct PostgresURL: Sendable, Equatable, CustomStringConvertible {
    /// How the connection is encrypted; `prefer`, as libpq, when the URL says nothing.
    public enum TLSMode: String, Sendable {
        case disable, prefer
        /// Requires TLS with a certificate the system trusts (stricter than libpq's `require`).
        case require
    }

    public var host: String
    public var port: Int
    public var user: String
    public var password: String?
    public var database: String
    public var tls: TLSMode

    /// Parses `text`; a URL that is not a PostgreSQL database's is `StoreError(.invalid)` saying what is wrong.
    public init(_ text: String) throws {
        func refuse(_ problem: String) -> StoreError {
            StoreError(
                .invalid, value: Self.redacted(text),
                "\(Self.redacted(text)): \(problem); expected postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE")
        }
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased() else {
            throw refuse("not a URL")
        }
        guard scheme == "postgres" || scheme == "postgresql" else {
            throw refuse("the scheme is \(scheme)://, not postgres:// or postgresql://")
        }
        guard let host = components.host, !host.isEmpty else { throw refuse("no host") }
        guard let user = components.user, !user.isEmpty else { throw refuse("no user") }
        let database = String(components.path.drop(while: { $0 == "/" }))
        guard !database.isEmpty, !database.contains("/") else { throw refuse("no database name after the host") }
        var tls = TLSMode.prefer
        for item in components.queryItems ?? [] {
            guard item.name == "sslmode", let mode = item.value.flatMap(TLSMode.init(rawValue:)) else {
                throw refuse("unknown option \(item.name)=\(item.value ?? ""); only sslmode=disable|prefer|require")
            }
            tls = mode
        }
        let port = components.port ?? 5432
        guard (1...65535).contains(port) else { throw refuse("the port is not between 1 and 65535") }
        self.host = host
        self.port = port
        self.user = user
        self.password = components.password
        self.database = database
        self.tls = tls
    }

    /// `host:port/database`: what messages name, never the password.
    public var description: String { "\(host):\(port)/\(database)" }

    /// The same server's database `name`.
    public func database(_ name: String) -> PostgresURL {
        var url = self
        url.database = name
        return url
    }

    /// The pool's settings, at most `poolSize` connections.
    func clientConfiguration(poolSize: Int) -> PostgresClient.Configuration {
        let tls: PostgresClient.Configuration.TLS =
            switch self.tls {
            case .disable: .disable
            case .prefer: .prefer(.makeClientConfiguration())
            case .require: .require(.makeClientConfiguration())
            }
        var configuration = PostgresClient.Configuration(
            host: host, port: port, username: user, password: password, database: database, tls: tls)
        configuration.options.maximumConnections = max(1, poolSize)
        return configuration
    }

    /// The settings of one connection outside the pool (migrations, tests' maintenance).
    func connectionConfiguration() throws -> PostgresConnection.Configuration {
        let tls: PostgresConnection.Configuration.TLS =
            switch self.tls {
            case .disable: .disable
            case .prefer: .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
            case .require: .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
            }
        return PostgresConnection.Configuration(
            host: host, port: port, username: user, password: password, database: database, tls: tls)
    }

    /// `text` with any password replaced by `***`, for messages.
    static func redacted(_ text: String) -> String {
        guard var components = URLComponents(string: text), components.password != nil else { return text }
        components.password = "***"
        return components.string ?? "the database URL"
    }
}
