import Foundation
import Testing

@testable import TouchstoneDomain
@testable import TouchstoneHTTP
@testable import TouchstoneServer
@testable import TouchstoneStorage

/// Row identifiers: random ones, and time-ordered ones for the rows every login writes.
@Suite struct IdentifierTests {
    @Test func randomIdentifiersAreVersion4UUIDs() throws {
        let id = RecordID.random()
        let uuid = try #require(UUID(uuidString: id)).uuid
        #expect(id == id.lowercased())
        #expect(uuid.6 >> 4 == 4 && uuid.8 >> 6 == 0b10)
    }

    @Test func timeOrderedIdentifiersAreVersion7UUIDsThatSortByTheirMillisecond() throws {
        let start = Date(timeIntervalSince1970: 1_800_000_000.5)
        let ids = (0..<200).map { RecordID.timeOrdered(at: start + Double($0) * 0.002) }
        #expect(ids == ids.sorted())
        #expect(Set(ids).count == ids.count)
        let uuid = try #require(UUID(uuidString: ids[0])).uuid
        #expect(ids[0] == ids[0].lowercased())
        #expect(uuid.6 >> 4 == 7 && uuid.8 >> 6 == 0b10)
        // The first 48 bits are the Unix time in milliseconds, big-endian.
        let milliseconds = [uuid.0, uuid.1, uuid.2, uuid.3, uuid.4, uuid.5].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        #expect(milliseconds == 1_800_000_000_500)
        // Within one millisecond the other 74 bits are random.
        let same = (0..<50).map { _ in RecordID.timeOrdered(at: start) }
        #expect(Set(same).count == same.count)
    }
}
