// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "morningproof",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "morningproof", targets: ["morningproof"]),
        .library(name: "MorningProofCore", targets: ["MorningProofCore"]),
        .library(name: "MorningProofStore", targets: ["MorningProofStore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.0"),
    ],
    targets: [
        // Pure domain: days, clocks, schedules, streaks, score. Foundation only.
        .target(name: "MorningProofCore"),
        // SQLite through GRDB: the one place that imports GRDB.
        .target(
            name: "MorningProofStore",
            dependencies: ["MorningProofCore", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        // Commands and output formatting: the one place that imports ArgumentParser.
        .target(
            name: "MorningProofCLI",
            dependencies: [
                "MorningProofCore", "MorningProofStore", "PhotoVerification",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // libjpeg(-turbo) and libpng from the system (Debian: libjpeg-dev, libpng-dev).
        .systemLibrary(name: "CJPEG", pkgConfig: "libjpeg", providers: [.apt(["libjpeg-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        // The C shim: the only code including jpeglib.h and png.h; owns setjmp and cleanup.
        .target(name: "CImageCodecs", dependencies: ["CJPEG", "CPNG"]),
        // Photo decoding (and, on top of it, the bed verifier).
        .target(name: "PhotoVerification", dependencies: ["MorningProofCore", "CImageCodecs"]),
        .executableTarget(name: "morningproof", dependencies: ["MorningProofCLI"]),
        // Fits Models/bed-made-v1.json on a labelled folder with the verifier's own feature code.
        .executableTarget(name: "morningproof-calibrate", dependencies: ["PhotoVerification", "MorningProofCore"]),
        .testTarget(name: "MorningProofCoreTests", dependencies: ["MorningProofCore"]),
        .testTarget(name: "MorningProofStoreTests", dependencies: ["MorningProofStore"]),
        .testTarget(name: "PhotoVerificationTests", dependencies: ["PhotoVerification"]),
        .testTarget(
            name: "MorningProofCLITests",
            dependencies: ["MorningProofCLI", "morningproof"]
        ),
    ]
)
