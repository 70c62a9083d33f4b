import Foundation
import SQLKit

extension SQLStore {
    package func purgeExpired(now: Date) async throws {
        let seconds = now.storedSeconds
        try await provider.write { database in
            try await database.raw("DELETE FROM challenges WHERE expires_at <= \(bind: seconds)").run()
        }
        try await provider.write { database in
            try await database.raw("DELETE FROM used_tokens WHERE expires_at <= \(bind: seconds)").run()
        }
        try await provider.write { database in
            try await database.raw("DELETE FROM webauthn_ceremonies WHERE expires_at <= \(bind: seconds)").run()
        }
        try await provider.write { database in
            try await database.raw(
                "DELETE FROM password_throttle WHERE blocked_until <= \(bind: seconds) AND last_failure_at <= \(bind: seconds - 86_400)"
            ).run()
        }
    }
}
