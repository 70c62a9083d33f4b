import Testing
import TouchstoneAttestation

/// The strict DER parser on hand-built `KeyDescription`s: what is not strict DER throws, never traps; a BOOLEAN
/// encoded 0x01 reads as true.
struct KeyDescriptionParserTests {
    typealias D = DERBuilder

    static let challenge = Array("hand-built challenge".utf8)

    static func rootOfTrust(deviceLocked: [UInt8] = [0x01, 0x01, 0xff]) -> [UInt8] {
        D.sequence([D.octets(Array(repeating: 0, count: 32)), deviceLocked, D.enumerated(0), D.octets(Array(repeating: 1, count: 32))])
    }

    static let applicationID = D.sequence([
        D.set([D.sequence([D.octets(Array("com.example.app".utf8)), D.integer(7)])]),
        D.set([D.octets(Array(repeating: 9, count: 32))]),
    ])

    static func hardwareEnforced(_ fields: [[UInt8]]? = nil) -> [UInt8] {
        D.sequence(fields ?? [
            D.tagged(1, D.set([D.integer(2)])), D.tagged(2, D.integer(3)), D.tagged(3, D.integer(256)),
            D.tagged(10, D.integer(1)), D.tagged(504, D.integer(2)), D.tagged(702, D.integer(0)),
            D.tagged(704, rootOfTrust()), D.tagged(705, D.integer(160000)),
        ])
    }

    static func keyDescription(
        version: Int = 300, level: Int = 1, hardware: [UInt8] = hardwareEnforced(), extra: [[UInt8]] = []
    ) -> [UInt8] {
        D.sequence([
            D.integer(version), D.enumerated(level), D.integer(version), D.enumerated(level), D.octets(challenge),
            D.octets([]),
            D.sequence([D.tagged(701, D.integer(1_700_000_000_000)), D.tagged(709, D.octets(applicationID))]),
            hardware,
        ] + extra)
    }

    /// The content of a DER SEQUENCE (what follows its identifier and length).
    static func outerContent(_ bytes: [UInt8]) -> [UInt8] {
        let lengthBytes = bytes[1] < 0x80 ? 0 : Int(bytes[1] & 0x7f)
        return Array(bytes[(2 + lengthBytes)...])
    }

    static func expectMalformed(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
        let error = #expect(throws: AttestationError.self, sourceLocation: sourceLocation) {
            try KeyDescription(derEncoded: bytes)
        }
        #expect(error?.code == .malformedKeyDescription, sourceLocation: sourceLocation)
    }

    @Test func aHandBuiltDescriptionParses() throws {
        let description = try KeyDescription(derEncoded: Self.keyDescription())
        #expect(description.attestationVersion == 300)
        #expect(description.attestationSecurityLevel == .trustedEnvironment)
        #expect(description.attestationChallenge == Self.challenge)
        #expect(description.hardwareEnforced.purposes == [2])
        #expect(description.hardwareEnforced.keySize == 256)
        #expect(description.hardwareEnforced.userAuthType == 2)
        #expect(description.hardwareEnforced.origin == 0)
        #expect(description.hardwareEnforced.noAuthRequired == false)
        #expect(description.hardwareEnforced.rootOfTrust?.deviceLocked == true)
        #expect(description.hardwareEnforced.rootOfTrust?.verifiedBootState == .verified)
        #expect(description.softwareEnforced.attestationApplicationID?.packages.map(\.name) == ["com.example.app"])
        #expect(description.softwareEnforced.creationDateTime?.timeIntervalSince1970 == 1_700_000_000)
    }

    @Test(arguments: [(0x01 as UInt8, true), (0xff, true), (0x00, false)])
    func booleansReadAsDERAndTheOneLeniency(byte: UInt8, value: Bool) throws {
        let hardware = Self.hardwareEnforced([D.tagged(704, Self.rootOfTrust(deviceLocked: [0x01, 0x01, byte]))])
        let description = try KeyDescription(derEncoded: Self.keyDescription(hardware: hardware))
        #expect(description.hardwareEnforced.rootOfTrust?.deviceLocked == value)
    }

    @Test(arguments: [[0x01, 0x01, 0x02], [0x01, 0x01, 0x7f], [0x01, 0x02, 0xff, 0xff], [0x01, 0x00]] as [[UInt8]])
    func otherBooleanEncodingsAreRefused(boolean: [UInt8]) {
        let hardware = Self.hardwareEnforced([D.tagged(704, Self.rootOfTrust(deviceLocked: boolean))])
        Self.expectMalformed(Self.keyDescription(hardware: hardware))
    }

    @Test func tagsOutOfAscendingOrderAreRefused() {
        Self.expectMalformed(Self.keyDescription(hardware: Self.hardwareEnforced([
            D.tagged(2, D.integer(3)), D.tagged(1, D.set([D.integer(2)])),
        ])))
    }

    @Test func aRepeatedTagIsRefused() {
        Self.expectMalformed(Self.keyDescription(hardware: Self.hardwareEnforced([
            D.tagged(1, D.set([D.integer(2)])), D.tagged(1, D.set([D.integer(3)])),
        ])))
    }

    @Test func trailingBytesAreRefused() {
        Self.expectMalformed(Self.keyDescription() + [0x00])
        Self.expectMalformed(Self.keyDescription(extra: [D.octets([])]))
    }

    @Test func everyTruncationIsRefused() {
        let bytes = Self.keyDescription()
        for count in 0..<bytes.count {
            Self.expectMalformed(Array(bytes.prefix(count)))
        }
    }

    @Test func aNonMinimalLengthIsRefused() throws {
        let content = Self.outerContent(Self.keyDescription())
        let challenge = D.octets(Self.challenge)
        let longForm = [0x04, 0x81, UInt8(Self.challenge.count)] + Self.challenge
        let offset = try #require(AttestationVectorTests.offset(of: challenge, in: content))
        let edited = Array(content[..<offset]) + longForm + Array(content[(offset + challenge.count)...])
        #expect(try KeyDescription(derEncoded: D.tlv([0x30], content)).attestationVersion == 300, "the builder re-wraps")
        Self.expectMalformed(D.tlv([0x30], edited))
        // A non-minimal INTEGER.
        Self.expectMalformed(Self.keyDescription(hardware: Self.hardwareEnforced([D.tagged(2, [0x02, 0x02, 0x00, 0x03])])))
    }

    @Test func anIndefiniteLengthIsRefused() {
        Self.expectMalformed([0x30, 0x80] + Self.outerContent(Self.keyDescription()) + [0x00, 0x00])
    }

    @Test(arguments: [1, 5, 99, 101, 500])
    func anUndocumentedVersionIsRefused(version: Int) {
        Self.expectMalformed(Self.keyDescription(version: version))
    }

    @Test func anUndefinedSecurityLevelIsRefused() {
        Self.expectMalformed(Self.keyDescription(level: 3))
    }

    @Test func aFieldOfTheWrongTypeIsRefused() {
        Self.expectMalformed(Self.keyDescription(hardware: Self.hardwareEnforced([D.tagged(503, D.integer(1))])))
        Self.expectMalformed(Self.keyDescription(hardware: Self.hardwareEnforced([D.tagged(2, D.octets([3]))])))
        Self.expectMalformed(Self.keyDescription(hardware: Self.hardwareEnforced([[0x82, 0x01, 0x03]])))
        Self.expectMalformed(Self.keyDescription(hardware: Self.hardwareEnforced([D.tagged(2, D.integer(3) + D.integer(3))])))
    }

    /// Every single-bit change of a valid description parses or throws; none traps.
    @Test func flippedBitsNeverTrap() {
        let bytes = Self.keyDescription()
        var refused = 0
        for index in bytes.indices {
            for bit in 0..<8 {
                var copy = bytes
                copy[index] ^= 1 << bit
                if (try? KeyDescription(derEncoded: copy)) == nil { refused += 1 }
            }
        }
        #expect(refused > bytes.count)
    }
}
