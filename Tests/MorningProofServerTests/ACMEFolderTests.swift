import ACME
import Foundation
import MorningProofServer
import Testing

/// Where ACME keeps its keys and certificates (mode 0600 in a 0700 folder), when it renews, and
/// what the plain http listener answers the CA.
@Suite("ACME folder and renewal")
struct ACMEFolderTests {
    let folder = ACMECertificateFolder(
        path: FileManager.default.temporaryDirectory.appendingPathComponent("mp-acme-\(UUID().uuidString)/acme").path)

    private func mode(_ path: String) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    @Test func keysAndCertificatesAreReadableByTheOwnerOnlyAndTheAccountKeyIsKept() throws {
        defer { try? FileManager.default.removeItem(atPath: folder.path) }
        let previous = umask(0o022)
        defer { umask(previous) }
        try folder.create()
        let key = try folder.accountKey()
        try folder.savePlaceholder(domain: "morningproof.test")
        #expect(try mode(folder.path) == 0o700)
        for file in [
            folder.accountKeyPath, folder.certificatePath(domain: "morningproof.test"),
            folder.keyPath(domain: "morningproof.test"),
        ] {
            #expect(try mode(file) == 0o600, "\(file)")
        }
        #expect(try folder.accountKey().thumbprint == key.thumbprint, "the stored account key, not a new one")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".new") }
        #expect(leftovers.isEmpty)
    }

    @Test func thePlaceholderIsNeverTakenForTheCAsCertificate() throws {
        defer { try? FileManager.default.removeItem(atPath: folder.path) }
        try folder.create()
        try folder.savePlaceholder(domain: "morningproof.test")
        let stored = try #require(folder.storedCertificate(domain: "morningproof.test"))
        #expect(stored.isSelfSigned)
        #expect(stored.names == ["morningproof.test"])
        #expect(!stored.serves("morningproof.test"))
        #expect(folder.storedCertificate(domain: "other.test") == nil)
    }

    @Test func renewalIsDueAtTwoThirdsOfTheLifetime() {
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let ninetyDays = StoredCertificate(
            notValidBefore: start, notValidAfter: start.addingTimeInterval(90 * 86_400), names: ["a.test"])
        #expect(ninetyDays.renewalDate == start.addingTimeInterval(60 * 86_400))
        #expect(ninetyDays.serves("A.test") && !ninetyDays.serves("b.test"))
    }

    @Test func theChallengeListenerAnswersOnlyTokensUnderWay() {
        let challenges = HTTP01Challenges()
        #expect(challenges.keyAuthorization(forPath: "/.well-known/acme-challenge/abc") == nil)
        #expect(challenges.keyAuthorization(forPath: "/abc") == nil)
    }
}
