/// A `TPMS_ATTEST` structure of type `TPM_ST_ATTEST_CERTIFY` (TPM 2.0 Part 2 §10.12.8), reduced to what WebAuthn
/// checks. `qualifiedSigner`, `clockInfo` and `firmwareVersion` are read past and ignored (WebAuthn §8.3).
struct TPMCertifyInfo: Sendable {
    /// `TPM_GENERATED_VALUE`.
    static let generatedValue: UInt32 = 0xff54_4347
    /// `TPM_ST_ATTEST_CERTIFY`.
    static let attestCertify: UInt16 = 0x8017

    let magic: UInt32
    let type: UInt16
    let extraData: [UInt8]
    /// The Name of the certified object (`attested.name`).
    let name: [UInt8]

    init(bytes: [UInt8]) throws {
        var reader = TPMReader(bytes)
        magic = try reader.uint32()
        type = try reader.uint16()
        _ = try reader.sized()  // qualifiedSigner
        extraData = try reader.sized()
        _ = try reader.uint64()  // clockInfo.clock
        _ = try reader.uint32()  // clockInfo.resetCount
        _ = try reader.uint32()  // clockInfo.restartCount
        _ = try reader.bytes(1)  // clockInfo.safe
        _ = try reader.uint64()  // firmwareVersion
        name = try reader.sized()  // attested: TPMS_CERTIFY_INFO.name
        _ = try reader.sized()  // attested: TPMS_CERTIFY_INFO.qualifiedName
        guard reader.isAtEnd else { throw TPMReader.Truncated() }
    }
}
