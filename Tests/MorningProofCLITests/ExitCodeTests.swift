import MorningProofCore
import MorningProofStoreContract
import Testing

@testable import MorningProofCLI

/// The one place where errors become exit codes: each kind of `MorningProofError` exits with one
/// sysexits code (docs/cli.md), and a lower layer's error exits as the kind it converts to, with the
/// message as the CLI words it.
@Suite struct ExitCodeTests {
    typealias Kind = MorningProofError.Kind

    /// Every kind and its documented exit code. A new kind fails to compile here until it has its row.
    static func documented(_ kind: Kind) -> Int32 {
        switch kind {
        case .negative: 1
        case .usage: 64
        case .dataError: 65
        case .noInput: 66
        case .ioError: 74
        case .busy: 75
        // What the server refuses with 401, 404, 409, 422 or 429 is a usage error for a command.
        case .unauthorized, .notFound, .conflict, .refused, .tooManyRequests: 64
        // What the server refuses with 403 (a disabled account) too.
        case .forbidden: 64
        }
    }

    static let kinds: [Kind] = [
        .negative, .usage, .dataError, .noInput, .ioError, .busy, .unauthorized, .notFound, .conflict, .refused,
        .tooManyRequests(retryAfter: 7), .forbidden,
    ]

    @Test(arguments: kinds) func everyKindExitsWithItsCode(kind: Kind) throws {
        let (message, code) = try #require(ExitStatus.of(MorningProofError(kind, code: "a_code", "what went wrong")))
        #expect(code == Self.documented(kind))
        #expect(message == "what went wrong")
    }

    @Test func storeErrorsExitAsTheirKinds() throws {
        let expected: [(StoreError.Code, Int32)] = [
            (.notFound, 64), (.ambiguous, 64), (.conflict, 64), (.invalid, 64), (.busy, 75), (.unavailable, 74),
            (.missingFile, 66), (.badFile, 65),
        ]
        for (code, exit) in expected {
            let result = try #require(ExitStatus.of(StoreError(code, value: "x", "the store says no")))
            #expect(result.code == exit && result.message == "the store says no", "\(code)")
        }
        // No habits yet: the CLI says how to add one.
        let none = try #require(ExitStatus.of(StoreError.noHabits(named: "Run")))
        #expect(
            none.message == "no habit named \"Run\"; there are no habits yet; add one with: morningproof habit add NAME"
        )
    }

    @Test func hintsAreWordedAsTheCLIsOptions() throws {
        let pixels = MorningProofError(.dataError, "big.png: 60000000 pixels\(hint: .raisePixelLimit)")
        #expect(
            ExitStatus.of(pixels)?.message
                == "big.png: 60000000 pixels (raise it with --max-pixels if the photo is real)")
        #expect(pixels.message == "big.png: 60000000 pixels")
    }

    @Test func otherErrorsAreNotOurs() {
        struct Elsewhere: Error {}
        #expect(ExitStatus.of(Elsewhere()) == nil)
    }
}
