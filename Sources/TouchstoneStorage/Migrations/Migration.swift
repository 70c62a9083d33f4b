/// One step of the schema: the statements that take a database from the version before it to `version`.
///
/// ⚠️ A released step is never edited, reordered or removed (databases out there have run it, and
/// `schema_migrations` records only its version): change the schema by appending a step to ``Migrations/all``.
package struct Migration: Sendable, Equatable {
    /// The version `schema_migrations` records once the step has run: one more than the step before it.
    package let version: Int
    /// What the step adds, in `snake_case`; for readers and the test that pins released steps, not stored.
    package let name: String
    /// The statements, run in order in one transaction; the same on SQLite and PostgreSQL.
    package let statements: [String]
}
