// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Touchstone",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .library(name: "TouchstoneProtocol", targets: ["TouchstoneProtocol"]),
        .library(name: "TouchstoneCrypto", targets: ["TouchstoneCrypto"]),
        .library(name: "TouchstoneServer", targets: ["TouchstoneServer"]),
        .library(name: "TouchstoneClient", targets: ["TouchstoneClient"]),
        .library(name: "TouchstoneWebAuthn", targets: ["TouchstoneWebAuthn"]),
        .executable(name: "touchstone", targets: ["touchstone"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.8.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        .package(url: "https://github.com/vapor/sql-kit.git", from: "3.36.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/vapor/postgres-kit.git", from: "2.17.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.3"),
        // OTLP/HTTP only: the default gRPC trait builds gRPC and its HTTP/2 transport, minutes of build for nothing.
        .package(url: "https://github.com/swift-otel/swift-otel.git", from: "1.6.0", traits: ["OTLPHTTP"]),
    ],
    targets: [
        .target(name: "TouchstoneProtocol"),
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        .target(
            name: "TouchstoneCrypto",
            dependencies: [
                "TouchstoneProtocol",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]
        ),
        .target(
            name: "TouchstoneWebAuthn",
            dependencies: [
                "TouchstoneProtocol",
                "TouchstoneCrypto",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ]
        ),
        .target(
            name: "TouchstoneClient",
            dependencies: [
                "TouchstoneProtocol",
                "TouchstoneCrypto",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]
        ),
        .target(
            name: "TouchstoneAttestation",
            dependencies: [
                "TouchstoneWebAuthn",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ]
        ),
        .target(
            // ⚠️ Tests only: a test CA's Android-like key attestations, for `touchstone device register
            // --insecure-test-attestation-ca` and the tests; a server trusts them only with --insecure-attestation-root.
            name: "TouchstoneInsecureTestAttestation",
            dependencies: [
                "TouchstoneProtocol",
                "TouchstoneCrypto",
                "TouchstoneClient",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ]
        ),
        .target(
            name: "TouchstoneStorage",
            dependencies: [
                "TouchstoneProtocol",
                "TouchstoneCrypto",
                "CSQLite",
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "PostgresKit", package: "postgres-kit"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]
        ),
        .target(
            name: "TouchstoneDomain",
            dependencies: [
                "TouchstoneProtocol",
                "TouchstoneCrypto",
                "TouchstoneWebAuthn",
                "TouchstoneAttestation",
                "TouchstoneStorage",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Metrics", package: "swift-metrics"),
            ]
        ),
        .target(
            name: "TouchstoneHTTP",
            dependencies: [
                "TouchstoneProtocol",
                "TouchstoneDomain",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            resources: [.copy("Resources"), .copy("Web/Assets")]
        ),
        .target(
            name: "TouchstoneDelivery",
            dependencies: [
                "TouchstoneProtocol",
                "TouchstoneCrypto",
                "TouchstoneStorage",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]
        ),
        .target(
            name: "TouchstoneServer",
            dependencies: [
                "TouchstoneProtocol",
                "TouchstoneCrypto",
                "TouchstoneStorage",
                "TouchstoneDomain",
                "TouchstoneHTTP",
                "TouchstoneDelivery",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "OTel", package: "swift-otel"),
            ]
        ),
        .target(
            name: "TouchstoneBenchSeed",
            dependencies: [
                "TouchstoneProtocol",
                "TouchstoneCrypto",
                "TouchstoneStorage",
                "TouchstoneDomain",
                "TouchstoneServer",
                .product(name: "SQLKit", package: "sql-kit"),
            ]
        ),
        .target(
            name: "TouchstoneBench",
            dependencies: [
                "TouchstoneProtocol",
                "TouchstoneCrypto",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        .executableTarget(
            name: "touchstone",
            dependencies: [
                "TouchstoneServer",
                "TouchstoneDelivery",
                "TouchstoneClient",
                "TouchstoneProtocol",
                "TouchstoneBench",
                "TouchstoneBenchSeed",
                "TouchstoneInsecureTestAttestation",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .target(
            // The parsers of hostile bytes as fuzz targets, for `scripts/fuzz` and the replay of what it finds.
            name: "TouchstoneFuzzing",
            dependencies: [
                "TouchstoneProtocol",
                "TouchstoneCrypto",
                "TouchstoneWebAuthn",
                "TouchstoneAttestation",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .executableTarget(name: "touchstone-fuzz", dependencies: ["TouchstoneFuzzing"]),
        .target(
            name: "TouchstoneTestSupport",
            dependencies: [
                "TouchstoneProtocol",
                "TouchstoneCrypto",
                // The migrated template of each store (`MigratedTemplate`) runs the server's own migrations.
                "TouchstoneStorage",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "PostgresKit", package: "postgres-kit"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/TouchstoneTestSupport"
        ),
        .target(
            name: "TouchstoneWebAuthnTestSupport",
            dependencies: [
                "TouchstoneWebAuthn",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            path: "Tests/TouchstoneWebAuthnTestSupport"
        ),
        .testTarget(
            name: "TouchstoneCryptoTests",
            dependencies: [
                "TouchstoneCrypto", "TouchstoneTestSupport",
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .testTarget(
            name: "TouchstoneAttestationTests",
            dependencies: [
                "TouchstoneAttestation",
                "TouchstoneWebAuthn",
                "TouchstoneWebAuthnTestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            resources: [.copy("Vectors")]
        ),
        .testTarget(
            name: "TouchstoneServerTests",
            dependencies: [
                "TouchstoneServer",
                "TouchstoneDelivery",
                "TouchstoneStorage",
                "TouchstoneDomain",
                "TouchstoneHTTP",
                "TouchstoneTestSupport",
                "TouchstoneWebAuthnTestSupport",
                "TouchstoneAttestation",
                "TouchstoneInsecureTestAttestation",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]
        ),
        .testTarget(
            name: "TouchstoneDeliveryTests",
            dependencies: [
                "TouchstoneDelivery", "TouchstoneProtocol", "TouchstoneStorage", "TouchstoneTestSupport",
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            // The stand-in for APNs, FCM and Google's token endpoint, written with h2, run with python3.
            exclude: ["Scripts"]
        ),
        .testTarget(
            name: "TouchstoneWebAuthnTests",
            dependencies: [
                "TouchstoneWebAuthn",
                "TouchstoneFuzzing",
                "TouchstoneWebAuthnTestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ]
        ),
        .testTarget(
            name: "TouchstoneClientTests",
            dependencies: [
                "TouchstoneClient",
                "TouchstoneServer",
                "TouchstoneStorage",
                "TouchstoneDomain",
                "TouchstoneHTTP",
                "TouchstoneTestSupport",
            ]
        ),
        .testTarget(
            name: "TouchstoneCLITests",
            dependencies: [
                "TouchstoneProtocol", "TouchstoneCrypto", "TouchstoneTestSupport", "TouchstoneInsecureTestAttestation",
                .product(name: "Crypto", package: "swift-crypto"),
                // RSA keys of test service accounts (admin app push).
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ],
            // The relying site written with Authlib, run with python3.
            exclude: ["Scripts"]
        ),
        .testTarget(
            name: "TouchstoneBrowserTests",
            dependencies: [
                "TouchstoneProtocol", "TouchstoneTestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
                // The DevTools client's WebSocket.
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ]
        ),
    ]
)
