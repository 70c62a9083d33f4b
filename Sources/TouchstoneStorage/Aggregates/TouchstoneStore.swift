/// Everything the server persists, one protocol per aggregate. Every method is atomic on its own: conditional
/// statements or one transaction, never a read followed by a write in Swift.
package typealias TouchstoneStore = AppStore & UserStore & EnrollmentStore & DeviceStore & ChallengeStore & LoginStore
    & SessionStore & ThrottleStore & ServerKeyStore & ConfirmationStore & WebLoginStore & LegacyKeyStore & PasskeyStore
    & AuditStore & HousekeepingStore & ProviderStore & RateLimitStore & NoticeStore & RecoveryStore
    & PushStore & CIBAStore & AdminTokenStore & UserDirectoryStore & AdminAppStore & WebhookStore
