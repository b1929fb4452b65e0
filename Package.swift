// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "morningproof",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "morningproof", targets: ["morningproof"]),
        .executable(name: "morningproof-server", targets: ["morningproof-server"]),
        .library(name: "MorningProofCore", targets: ["MorningProofCore"]),
        .library(name: "MorningProofStoreContract", targets: ["MorningProofStoreContract"]),
        .library(name: "MorningProofSQLite", targets: ["MorningProofSQLite"]),
        .library(name: "MorningProofPostgres", targets: ["MorningProofPostgres"]),
        .library(name: "HealthMetrics", targets: ["HealthMetrics"]),
        .library(name: "MorningProofService", targets: ["MorningProofService"]),
        .library(name: "MorningProofInterchange", targets: ["MorningProofInterchange"]),
        .library(name: "HabitCharts", targets: ["HabitCharts"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.19"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // The server. Hummingbird's default traits pull in swift-configuration, which nothing here uses.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        // HTTP/1 parts as HTTP types: the server builds its own HTTP/1 pipeline (timeouts, closing).
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.34.1"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        // Property-based tests (Swift Testing): the cached habit state against the whole history.
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        // PostgreSQL for scale: the server's store on a database shared by many processes.
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.0"),
        // Notifications to phones: Web Push's P-256, HKDF, AES-GCM and ES256 (RFC 8291/8292), the
        // webhook's HMAC; and the outbound HTTPS client, pinned to the addresses it checked.
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        // HTTPS in the server itself (`serve --tls-cert --tls-key`): already built for the client above.
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        // Certificates from an ACME CA (`serve --acme-domain`): the CSR, and reading a certificate's dates.
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
    ],
    targets: [
        // Pure domain: days, clocks, schedules, streaks, score. Foundation only.
        // The default quotes are Quotes/default-quotes.json, embedded through a symlink.
        .target(name: "MorningProofCore", resources: [.embedInCode("default-quotes.json")]),
        // Other programs' habit data and our own export, read and written as plain values (no I/O).
        .target(name: "MorningProofInterchange", dependencies: ["MorningProofCore"]),
        // The store contract: the async protocols every engine serves, StoreError and the plain
        // values both engines return. Core, and Interchange for the import and export documents that
        // `InterchangeStore` carries (plain values): no database library.
        .target(name: "MorningProofStoreContract", dependencies: ["MorningProofCore", "MorningProofInterchange"]),
        // SQLite through GRDB: the one place that imports GRDB.
        .target(
            name: "MorningProofSQLite",
            dependencies: [
                "MorningProofCore", "MorningProofStoreContract", "MorningProofInterchange",
                .product(name: "GRDB", package: "GRDB.swift"),
                // The C API, for the one measured fast path that scans day statuses.
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),
        // PostgreSQL through postgres-nio: the one place that imports PostgresNIO. It serves the
        // store contract, and never links GRDB.
        .target(
            name: "MorningProofPostgres",
            dependencies: [
                "MorningProofCore", "MorningProofStoreContract", "MorningProofInterchange",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // Metric files (Apple Health export, Health Auto Export, CSV, JSON Lines) -> samples -> daily totals.
        .target(
            name: "HealthMetrics",
            dependencies: [
                "MorningProofCore",
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ]
        ),
        // The check pass, once-a-day notifications, hooks and the watch loop as a service.
        .target(
            name: "Observer",
            dependencies: [
                "MorningProofCore", "MorningProofStoreContract", "HealthMetrics", "MorningProofService", "CHookSpawn",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // The use cases every front end calls (habits, entries, check-in, gate, status, report, settings,
        // photo proofs, metric import, accounts, tokens, daily updates); each takes an injected now.
        .target(
            name: "MorningProofService",
            dependencies: [
                "MorningProofCore", "MorningProofStoreContract", "PhotoVerification", "HealthMetrics",
                "MorningProofInterchange", "HabitCharts", "Digest", "WebAuthn",
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ]
        ),
        // Delivering notifications over HTTP: Web Push (VAPID, aes128gcm), ntfy and signed webhooks,
        // to targets checked after DNS resolution. The one place that imports Crypto and
        // AsyncHTTPClient.
        .target(
            name: "NotificationDelivery",
            dependencies: [
                "MorningProofCore", "MorningProofStoreContract", "MorningProofService",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Commands and output formatting: the one place that imports ArgumentParser.
        .target(
            name: "MorningProofCLI",
            dependencies: [
                "MorningProofCore", "MorningProofStoreContract", "MorningProofSQLite", "HealthMetrics", "Observer",
                "PhotoVerification",
                "MorningProofService", "MorningProofInterchange", "HabitCharts",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // libjpeg(-turbo) and libpng from the system (Debian: libjpeg-dev, libpng-dev).
        .systemLibrary(name: "CJPEG", pkgConfig: "libjpeg", providers: [.apt(["libjpeg-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        // libheif and libwebp from the system (Debian: libheif-dev, libwebp-dev): a phone's HEIC and WebP photos.
        .systemLibrary(name: "CHEIF", pkgConfig: "libheif", providers: [.apt(["libheif-dev"])]),
        .systemLibrary(name: "CWebP", pkgConfig: "libwebpdemux", providers: [.apt(["libwebp-dev"])]),
        // zlib from the system (Debian: zlib1g-dev): the server gzips the web app's files once.
        .systemLibrary(name: "CSystemZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // The C shim: the only code including jpeglib.h, png.h, libheif's and libwebp's headers; owns
        // setjmp and cleanup.
        .target(name: "CImageCodecs", dependencies: ["CJPEG", "CPNG", "CHEIF", "CWebP"]),
        // A habit's history as a picture (heatmap and score curve), to PNG (through the shim) or SVG.
        .target(name: "HabitCharts", dependencies: ["MorningProofCore", "CImageCodecs"]),
        // Starts notification hooks: fork, default signals, own process group, parent-death signal,
        // no inherited descriptors, exec. The only code that forks.
        .target(name: "CHookSpawn"),
        // SHA-256 from the system's libcrypto (Debian: libssl-dev): no BoringSSL to compile. Loaded
        // with dlopen on the first digest, not linked: it would cost every process start.
        .target(name: "CLibCrypto"),
        // SHA-256 for photo proofs and API tokens.
        .target(name: "Digest", dependencies: ["CLibCrypto"]),
        // Photo decoding (and, on top of it, the bed verifier).
        // The default bed model is Models/bed-made-v2.json, embedded through a symlink.
        .target(
            name: "PhotoVerification", dependencies: ["MorningProofCore", "CImageCodecs", "Digest"],
            resources: [.embedInCode("bed-made-v2.json")]),
        // A small RFC 8555 (ACME) client: the account key and JWS (ES256), orders answered by HTTP-01,
        // the CSR, and the folder where the account key and certificates are kept.
        .target(
            name: "ACME",
            dependencies: [
                "MorningProofCore",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]),
        // Passkeys (issue 41): a small, strict WebAuthn relying party (CBOR, authenticator data, COSE
        // ES256 and RS256 keys, client data), on swift-crypto; attestation is not verified.
        .target(
            name: "WebAuthn",
            dependencies: [
                "MorningProofCore",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]),
        // HTTP routes: decode, authenticate, call one use case, encode JSON. The one place that
        // imports Hummingbird. The committed openapi.yaml is embedded through a symlink.
        .target(
            name: "MorningProofServer",
            dependencies: [
                "MorningProofCore", "MorningProofStoreContract", "MorningProofService", "MorningProofInterchange",
                "HabitCharts", "NotificationDelivery", "CSystemZlib", "ACME", "WebAuthn",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            // The whole web app folder: `WebRoutes.files` is the one list of what it serves.
            resources: [.embedInCode("openapi.yaml"), .embedInCode("Web")]),
        .executableTarget(
            name: "morningproof", dependencies: ["MorningProofCLI"],
            // A position-dependent executable: the loader no longer applies ~95,000 relative
            // relocations (and the page faults of the pages they write) at every start, about 1 ms
            // of the ~7.5 ms `--help` takes. The server, which listens on a network, stays PIE.
            linkerSettings: [
                .unsafeFlags(["-Xlinker", "-no-pie"], .when(platforms: [.linux], configuration: .release))
            ]),
        // The server's command line: serve, and token create/list/revoke.
        .executableTarget(
            name: "morningproof-server",
            dependencies: [
                "MorningProofServer", "MorningProofService", "MorningProofStoreContract", "MorningProofSQLite", "MorningProofCore",
                "MorningProofPostgres", "Observer", "NotificationDelivery",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]),
        // Fits Models/bed-made-v2.json on a labelled folder with the verifier's own feature code.
        .executableTarget(name: "morningproof-calibrate", dependencies: ["PhotoVerification", "MorningProofCore"]),
        .testTarget(
            name: "MorningProofCoreTests",
            dependencies: ["MorningProofCore", .product(name: "PropertyBased", package: "swift-property-based")]),
        .testTarget(
            name: "MorningProofSQLiteTests",
            dependencies: [
                "MorningProofSQLite", "MorningProofStoreContract", "MorningProofCore", "MorningProofInterchange",
                "MorningProofTestSupport", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]),
        // Where the committed files are (Repository, Fixtures, SampleImages, HealthFixtures), for every
        // test target that reads them; Core only, so light targets stay light.
        .target(name: "TestFixtures", dependencies: ["MorningProofCore"], path: "Tests/TestFixtures"),
        // What the store and server tests share: the engines a test runs on (SQLite, and the
        // throwaway PostgreSQL of scripts/with-postgres), threads that may block, the built binaries.
        .target(
            name: "MorningProofTestSupport",
            dependencies: [
                "MorningProofPostgres", "MorningProofSQLite", "MorningProofStoreContract", "MorningProofCore",
                "MorningProofService",
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            path: "Tests/MorningProofTestSupport"),
        .testTarget(
            name: "MorningProofPostgresTests",
            dependencies: [
                "MorningProofPostgres", "MorningProofService", "HealthMetrics", "MorningProofSQLite", "MorningProofStoreContract", "MorningProofCore", "MorningProofTestSupport",
                "TestFixtures", "Observer", "NotificationTestSupport", "NotificationDelivery",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "PropertyBased", package: "swift-property-based"),
                // The SQLite schema that the PostgreSQL one is compared with.
                .product(name: "GRDB", package: "GRDB.swift"),
            ]),
        .testTarget(
            name: "MorningProofInterchangeTests", dependencies: ["MorningProofInterchange", "MorningProofCore"]),
        .testTarget(
            name: "HabitChartsTests", dependencies: ["HabitCharts", "MorningProofCore", "PhotoVerification", "TestFixtures"]),
        .testTarget(
            name: "HealthMetricsTests", dependencies: ["HealthMetrics", "MorningProofCore", "TestFixtures"]),
        .testTarget(
            name: "ObserverTests",
            dependencies: [
                "Observer", "MorningProofService", "MorningProofSQLite", "MorningProofStoreContract", "MorningProofCore", "MorningProofTestSupport",
                "TestFixtures",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(name: "PhotoVerificationTests", dependencies: ["PhotoVerification", "MorningProofCore", "TestFixtures"]),
        .testTarget(name: "DigestTests", dependencies: ["Digest"]),
        // A passkey authenticator for the tests: a P-256 key answering registrations and sign-ins.
        .target(
            name: "PasskeyTestSupport",
            dependencies: ["WebAuthn", "MorningProofCore", .product(name: "Crypto", package: "swift-crypto")],
            path: "Tests/PasskeyTestSupport"),
        .testTarget(
            name: "WebAuthnTests",
            dependencies: [
                "WebAuthn", "MorningProofCore", "PasskeyTestSupport", .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]),
        // The other side of notification delivery, for the delivery and server tests: a browser's push
        // keys, a fake push service that checks VAPID and decrypts, a fake ntfy and webhook receiver.
        .target(
            name: "NotificationTestSupport",
            dependencies: [
                "NotificationDelivery", "MorningProofStoreContract", "MorningProofCore",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Tests/NotificationTestSupport"),
        .testTarget(
            name: "NotificationDeliveryTests",
            dependencies: [
                "NotificationDelivery", "NotificationTestSupport", "MorningProofService", "MorningProofStoreContract",
                "MorningProofCore",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ]),
        .testTarget(
            name: "MorningProofServiceTests",
            dependencies: [
                "MorningProofService", "MorningProofSQLite", "MorningProofStoreContract", "PhotoVerification", "MorningProofCore",
                "MorningProofInterchange", "HealthMetrics", "TestFixtures", "MorningProofTestSupport",
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ]
        ),
        .testTarget(
            name: "MorningProofCLITests",
            dependencies: [
                "MorningProofCLI", "morningproof", "MorningProofService", "MorningProofSQLite", "MorningProofStoreContract", "MorningProofCore", "MorningProofTestSupport",
                "TestFixtures",
            ]
        ),
        .testTarget(
            name: "MorningProofServerTests",
            dependencies: [
                "MorningProofServer", "morningproof-server", "MorningProofService", "MorningProofSQLite", "MorningProofStoreContract",
                "MorningProofCore", "MorningProofPostgres", "MorningProofTestSupport", "TestFixtures", "ACME",
                "PasskeyTestSupport", "WebAuthn",
                .product(name: "Crypto", package: "swift-crypto"),
                // Counting every table's rows (PasskeyChallengeBoundTests).
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ]
        ),
    ]
)
