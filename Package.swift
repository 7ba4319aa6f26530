// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "remindc",
    products: [
        .library(name: "ReminderCompiler", targets: ["ReminderCompiler"]),
        .executable(name: "remindc", targets: ["remindc"]),
        // The HTTP service that `remindc serve` runs.
        .executable(name: "remindc-server", targets: ["remindc-server"]),
        // Checks a target's *.reminders.plist during the build and generates Swift constants.
        .plugin(name: "RemindcPlugin", targets: ["RemindcPlugin"]),
        // swift package remindc check
        .plugin(name: "RemindcCommandPlugin", targets: ["RemindcCommandPlugin"]),
    ],
    traits: [
        // The HTTP service (`remindc serve`) and its packages. Off by default, so that an app
        // depending on ReminderCompiler resolves none of them: SwiftPM leaves the packages of
        // a disabled trait out of a dependent's graph. `swift test --traits Service` tests it.
        .trait(name: "Service", description: "Builds remindc-server, the HTTP service behind `remindc serve`."),
        .default(enabledTraits: []),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // The service only (trait Service).
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // The tests only: they await child processes without holding a thread of the pool.
        .package(url: "https://github.com/swiftlang/swift-subprocess", from: "1.0.2"),
        // `swift package generate-documentation --target ReminderCompiler`.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // Compiler and linker flags for libxml2; Swift never imports its headers (see CXMLShim).
        .systemLibrary(
            name: "Clibxml2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]
        ),
        // The only code that includes <libxml/...>: a safe parser exposed through plain C types.
        .target(
            name: "CXMLShim",
            dependencies: ["Clibxml2"]
        ),
        .target(
            name: "ReminderCompiler",
            dependencies: ["CXMLShim"],
            // Every use of an unsafe construct is marked, and only Sources/ReminderCompiler/Unsafe
            // may mark one (a test holds the rest to that): see Internals, "Unsafe code".
            swiftSettings: [.strictMemorySafety(), .treatWarning("StrictMemorySafety", as: .error)]
        ),
        // The HTTP service behind `remindc serve`, a target of its own so that the library stays
        // free of it; without the Service trait it compiles to nothing.
        .target(
            name: "RemindcServer",
            dependencies: [
                "ReminderCompiler",
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Service"])),
                // The HTTP/1 channel's part types, for the handler that tells idle connections.
                .product(name: "HummingbirdCore", package: "hummingbird", condition: .when(traits: ["Service"])),
                .product(name: "Prometheus", package: "swift-prometheus", condition: .when(traits: ["Service"])),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: .when(traits: ["Service"])),
            ],
            // It needs no unsafe construct at all: no Unsafe/ folder, and the build refuses one.
            swiftSettings: [.strictMemorySafety(), .treatWarning("StrictMemorySafety", as: .error)]
        ),
        // The CLI's output files: disk space reserved ahead, temporaries removed on signals (see AtomicOutput).
        .target(name: "COutputFiles"),
        .executableTarget(
            name: "remindc",
            dependencies: [
                "ReminderCompiler",
                "COutputFiles",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // As in the library: only Sources/remindc/Unsafe may use an unsafe construct.
            swiftSettings: [.strictMemorySafety(), .treatWarning("StrictMemorySafety", as: .error)]
        ),
        // `remindc serve` becomes this executable, so that the command line does not link the HTTP stack.
        .executableTarget(
            name: "remindc-server",
            dependencies: ["RemindcServer", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .plugin(
            name: "RemindcPlugin",
            capability: .buildTool(),
            dependencies: ["remindc"],
            path: "Sources/RemindcPlugin"
        ),
        .plugin(
            name: "RemindcCommandPlugin",
            capability: .command(
                intent: .custom(verb: "remindc", description: "Check the package's reminder configs (*.reminders.plist)")
            ),
            dependencies: ["remindc"],
            path: "Sources/RemindcCommandPlugin"
        ),
        // Measures the compiler on the workloads of the Performance article: swift run -c release remindc-benchmark
        .executableTarget(
            name: "remindc-benchmark",
            dependencies: ["ReminderCompiler"],
            // Its process and /dev/null calls are fenced in Sources/remindc-benchmark/Unsafe.
            swiftSettings: [.strictMemorySafety(), .treatWarning("StrictMemorySafety", as: .error)]
        ),
        // Test-only: libxml2's RELAX NG validator, an independent check of schema/reminders.rng.
        .target(
            name: "CRelaxNGValidator",
            dependencies: ["Clibxml2"],
            path: "Tests/CRelaxNGValidator"
        ),
        .testTarget(
            name: "ReminderCompilerTests",
            dependencies: [
                "ReminderCompiler", "CRelaxNGValidator", "COutputFiles", "remindc", "remindc-server",
                .product(name: "Subprocess", package: "swift-subprocess"),
            ],
            // Fixtures, golden files and the Python readers and scripts are read from the source tree.
            exclude: [
                "Fixtures", "Golden", "Interop", "HTML/check_html.py", "Read/json_reference.py", "Service/spark_batch.py",
                "Service/batch_streaming.py", "Service/shutdown_drain.py", "Service/connection_limits.py",
                "Service/load_test.py", "Documentation/expo_example_check.mjs",
            ]
        ),
    ]
)
