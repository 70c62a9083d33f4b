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
        // Security notices expire after 30 days.
        try await provider.write { database in
            try await database.raw("DELETE FROM notices WHERE expires_at <= \(bind: seconds)").run()
        }
        try await provider.write { database in
            try await database.raw("DELETE FROM webauthn_ceremonies WHERE expires_at <= \(bind: seconds)").run()
        }
        try await provider.write { database in
            try await database.raw("DELETE FROM spent_jtis WHERE expires_at <= \(bind: seconds)").run()
        }
        try await provider.write { database in
            try await database.raw("DELETE FROM authorization_requests WHERE expires_at <= \(bind: seconds)").run()
        }
        // Rate-limit windows are a minute long; an older row counts nothing any more.
        try await provider.write { database in
            try await database.raw("DELETE FROM rate_limits WHERE window_start <= \(bind: seconds - 3_600)").run()
        }
        // Codes are kept a day past their 60 s, so that a late second use still ends what the first one issued.
        try await provider.write { database in
            try await database.raw("DELETE FROM authorization_codes WHERE expires_at <= \(bind: seconds - 86_400)").run()
        }
        try await provider.write { database in
            try await database.raw(
                "DELETE FROM password_throttle WHERE blocked_until <= \(bind: seconds) AND last_failure_at <= \(bind: seconds - 86_400)"
            ).run()
        }
    }
}
