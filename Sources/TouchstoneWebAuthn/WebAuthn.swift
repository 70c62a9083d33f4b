/// WebAuthn Level 3 relying-party verification: CBOR, COSE keys, authenticator data, attestation formats.
public enum WebAuthn {}
