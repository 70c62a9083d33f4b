import Synchronization
import TouchstoneClient
import TouchstoneProtocol

/// A key attestor that records what it was asked to attest and answers a fixed attestation, nothing, or an error.
final class RecordingAttestor: KeyAttestor {
    enum Answer: Sendable {
        case attestation(EnrollmentAttestation)
        case none
        case failure
    }

    struct Failure: Error {}

    private let answer: Answer
    private let asked = Mutex<[KeyAttestationSubject]>([])

    init(_ answer: Answer) {
        self.answer = answer
    }

    /// Every subject asked for, in order.
    var subjects: [KeyAttestationSubject] { asked.withLock { $0 } }

    func attest(_ subject: KeyAttestationSubject) async throws -> EnrollmentAttestation? {
        asked.withLock { $0.append(subject) }
        switch answer {
        case .attestation(let attestation): return attestation
        case .none: return nil
        case .failure: throw Failure()
        }
    }
}
