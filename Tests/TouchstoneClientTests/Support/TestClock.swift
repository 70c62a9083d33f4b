import Foundation
import Synchronization
import TouchstoneDomain

/// The server's clock: real time, plus whatever a test moved it forward by.
///
/// Real time keeps the SDK's device-signed tokens (stamped with the device's own clock) inside the server's
/// skew rules; moving forward a few seconds makes a session idle without sleeping.
final class TestClock: WallClock {
    private let offset = Mutex<TimeInterval>(0)

    func now() -> Date {
        Date().addingTimeInterval(offset.withLock { $0 })
    }

    func advance(by seconds: TimeInterval) {
        offset.withLock { $0 += seconds }
    }
}
