import Foundation
import Testing
import TouchstoneAttestation

/// Google's attestation status list, from google/android-key-attestation's test fixture (`Vectors/attestation/android/status.json`).
struct AttestationStatusListTests {
    static func vector() throws -> AttestationStatusList {
        try AttestationStatusList(json: try Vectors.data("attestation/android/status.json"))
    }

    /// The bytes of a hexadecimal serial, as a certificate's DER INTEGER holds them.
    static func bytes(_ hex: String) -> [UInt8] {
        let padded = hex.count % 2 == 0 ? hex : "0" + hex
        return stride(from: 0, to: padded.count, by: 2).map { offset in
            let start = padded.index(padded.startIndex, offsetBy: offset)
            return UInt8(padded[start..<padded.index(start, offsetBy: 2)], radix: 16)!
        }
    }

    @Test func theFixtureListsFourRevokedCertificatesAndOneSuspended() throws {
        let list = try Self.vector()
        #expect(list.entries.count == 5)
        #expect(list.entries.values.filter { $0.status == "REVOKED" }.count == 4)
        let suspended = try #require(list.entry(forSerial: Self.bytes("cc66e9a93713b6e643b26c15879786f7")))
        #expect(suspended.status == "SUSPENDED")
        #expect(suspended.reason == "KEY_COMPROMISE")
        #expect(suspended.comment == "Entry for testing only")
    }

    /// The all-digit keys are hexadecimal too (`BigInteger.toString(16)`), not decimal.
    @Test func serialsAreHexadecimalWithoutLeadingZeros() throws {
        let list = try Self.vector()
        #expect(list.entry(forSerial: Self.bytes("6681152659205225093"))?.status == "REVOKED")
        // DER keeps a leading zero byte before a high bit; the list does not.
        #expect(list.entry(forSerial: [0x00] + Self.bytes("cc66e9a93713b6e643b26c15879786f7"))?.status == "SUSPENDED")
        #expect(list.entry(forSerial: Self.bytes("6681152659205225094")) == nil)
        #expect(AttestationStatusList().entry(forSerial: Self.bytes("6681152659205225093")) == nil)
    }

    @Test func keysAreMatchedWhateverTheirCase() throws {
        let list = try AttestationStatusList(json: Data(#"{"entries": {"0ABC": {"status": "REVOKED"}}}"#.utf8))
        #expect(list.entry(forSerial: [0x0a, 0xbc])?.status == "REVOKED")
    }

    @Test(arguments: [
        "", "[]", #"{"entries": []}"#, #"{"entry": {}}"#, #"{"entries": {"12": {"reason": "X"}}}"#,
        #"{"entries": {"serial-1": {"status": "REVOKED"}}}"#, #"{"entries": {"": {"status": "REVOKED"}}}"#,
    ])
    func whatIsNotAStatusListIsRefused(json: String) {
        #expect(throws: AttestationStatusListError.self) { try AttestationStatusList(json: Data(json.utf8)) }
    }
}
