import Crypto
import Foundation
import PasskeyTestSupport
import Testing
import WebAuthn
import _CryptoExtras

@Suite struct RelyingPartyTests {
    let rp = TestAuthenticator.rp
    let challenge = Array((0..<32).map { UInt8($0) })

    func register(_ authenticator: TestAuthenticator, clientData: [UInt8]? = nil, object: [UInt8]? = nil) throws
        -> RelyingParty.Registration
    {
        try rp.register(
            clientDataJSON: clientData ?? TestAuthenticator.clientData(type: "webauthn.create", challenge: challenge),
            attestationObject: object ?? authenticator.attestationObject())
    }

    @Test func aNoneAttestationRegistersTheCredentialAndItsKey() throws {
        let authenticator = TestAuthenticator()
        let registration = try register(authenticator)
        #expect(registration.credentialID == authenticator.credentialID)
        // The same key (a map's entries may come in another order each time it is written).
        #expect(
            try CBORReader.decode(registration.publicKey, what: "stored")
                == CBORReader.decode(authenticator.coseKey, what: "made"))
        #expect(registration.clientData.challenge == challenge)
        #expect(registration.userVerified)
    }

    @Test func anotherFormatsStatementIsIgnoredButNoneWithAStatementIsRefused() throws {
        let authenticator = TestAuthenticator()
        let packed = authenticator.attestationObject(
            format: "packed", statement: [.text("alg"): .negative(-7), .text("sig"): .bytes([1, 2, 3])])
        #expect(try register(authenticator, object: packed).credentialID == authenticator.credentialID)
        let lying = authenticator.attestationObject(statement: [.text("sig"): .bytes([1])])
        #expect(throws: WebAuthnError.self) { try register(authenticator, object: lying) }
    }

    @Test func aRegistrationForAnotherOriginTypeSiteOrWithoutAPersonIsRefused() throws {
        let authenticator = TestAuthenticator()
        let cases: [(String, [UInt8]?, [UInt8]?)] = [
            (
                "origin",
                TestAuthenticator.clientData(
                    type: "webauthn.create", challenge: challenge, origin: "https://evil.example"), nil
            ),
            ("type", TestAuthenticator.clientData(type: "webauthn.get", challenge: challenge), nil),
            (
                "frame", TestAuthenticator.clientData(type: "webauthn.create", challenge: challenge, crossOrigin: true),
                nil
            ),
            ("site", nil, authenticator.attestationObject(rpID: "evil.example")),
        ]
        for (what, clientData, object) in cases {
            let error = #expect(throws: WebAuthnError.self, "\(what)") {
                try register(authenticator, clientData: clientData, object: object)
            }
            #expect(error?.code == "mismatch", "\(what): \(error?.message ?? "")")
        }
        var absent = authenticator
        absent.flags = 0
        #expect(throws: WebAuthnError.self) { try register(absent) }
    }

    @Test func aSignInSignedByTheKeyIsTakenAndItsCounterReturned() throws {
        var authenticator = TestAuthenticator()
        authenticator.signCount = 7
        let clientData = TestAuthenticator.clientData(type: "webauthn.get", challenge: challenge)
        let (data, signature) = try authenticator.assertion(clientDataJSON: clientData)
        let assertion = try rp.authenticate(
            clientDataJSON: clientData, authenticatorData: data, signature: signature,
            publicKey: authenticator.coseKey, storedSignCount: 6)
        #expect(assertion.signCount == 7)
        #expect(assertion.clientData.challenge == challenge)
    }

    @Test func aSignInWithAnotherKeyAnotherClientDataOrABackwardCounterIsRefused() throws {
        var authenticator = TestAuthenticator()
        authenticator.signCount = 5
        let clientData = TestAuthenticator.clientData(type: "webauthn.get", challenge: challenge)
        let (data, signature) = try authenticator.assertion(clientDataJSON: clientData)
        let other = TestAuthenticator()
        // Another key.
        #expect(throws: WebAuthnError.self) {
            try rp.authenticate(
                clientDataJSON: clientData, authenticatorData: data, signature: signature, publicKey: other.coseKey,
                storedSignCount: 0)
        }
        // The signature of other client data (another challenge).
        let changed = TestAuthenticator.clientData(type: "webauthn.get", challenge: challenge.reversed())
        #expect(throws: WebAuthnError.self) {
            try rp.authenticate(
                clientDataJSON: changed, authenticatorData: data, signature: signature,
                publicKey: authenticator.coseKey, storedSignCount: 0)
        }
        // The counter went backwards, or stayed.
        for stored: UInt32 in [5, 9] {
            let error = #expect(throws: WebAuthnError.self) {
                try rp.authenticate(
                    clientDataJSON: clientData, authenticatorData: data, signature: signature,
                    publicKey: authenticator.coseKey, storedSignCount: stored)
            }
            #expect(error?.message.contains("counter") == true)
        }
        // Authenticators without a counter (0 both times) are taken.
        authenticator.signCount = 0
        let (zero, zeroSignature) = try authenticator.assertion(clientDataJSON: clientData)
        _ = try rp.authenticate(
            clientDataJSON: clientData, authenticatorData: zero, signature: zeroSignature,
            publicKey: authenticator.coseKey, storedSignCount: 0)
    }

    @Test func anRS256KeySignsIn() throws {
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let numbers = try key.publicKey.getKeyPrimitives()
        let cose = CBORWriter.encode(
            .map([
                .unsigned(1): .unsigned(3), .unsigned(3): .negative(-257),
                .negative(-1): .bytes(Array(numbers.modulus)),
                .negative(-2): .bytes(Array(numbers.publicExponent)),
            ]))
        let authenticator = TestAuthenticator()
        let clientData = TestAuthenticator.clientData(type: "webauthn.get", challenge: challenge)
        let data = authenticator.authenticatorData(attested: false)
        let signature = try key.signature(
            for: data + Array(SHA256.hash(data: clientData)), padding: .insecurePKCS1v1_5)
        _ = try rp.authenticate(
            clientDataJSON: clientData, authenticatorData: data, signature: Array(signature.rawRepresentation),
            publicKey: cose, storedSignCount: 0)
        #expect(throws: WebAuthnError.self) {
            try rp.authenticate(
                clientDataJSON: clientData, authenticatorData: data,
                signature: Array(signature.rawRepresentation.reversed()),
                publicKey: cose, storedSignCount: 0)
        }
    }
}
