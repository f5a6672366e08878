// swift-tools-version:6.1
import PackageDescription

let package = Package(
  name: "ShieldBridge",
  products: [
    .executable(name: "shieldbridge", targets: ["shieldbridge"]),
    .library(name: "ShieldBridge", targets: ["ShieldBridge"]),
    .library(name: "DBus", targets: ["DBus"]),
    .library(name: "Notifications", targets: ["Notifications"]),
    .library(name: "DeepLink", targets: ["DeepLink"]),
    .library(name: "Localization", targets: ["Localization"]),
    .library(name: "Model", targets: ["Model"]),
    .library(name: "Desktop", targets: ["Desktop"]),
    .library(name: "ShieldCore", targets: ["ShieldCore"]),
  ],
  targets: [
    .systemLibrary(
      name: "CDBus",
      pkgConfig: "dbus-1",
      providers: [.apt(["libdbus-1-dev"])]
    ),
    .systemLibrary(
      name: "CXCB",
      pkgConfig: "xcb",
      providers: [.apt(["libxcb1-dev", "libxcb-screensaver0-dev", "libxcb-res0-dev", "libxcb-sync-dev"])]
    ),
    // The one bottom layer over the C library (see DESIGN.md); every other module goes through it.
    // Instants of the three clocks, calendar fields and the time zone as values: pure, no C library.
    .target(name: "Time"),
    // Finding and replacing text without the standard library's string processing (see below).
    .target(name: "Text"),
    .target(name: "Posix", dependencies: ["Text", "Time"]),
    // Log lines with a level and a subsystem, and their one format; pure, so that the core can say what to log.
    .target(name: "Log"),
    // The version (a copy of VERSION, written by scripts/version), for every module that tells it.
    .target(name: "Version"),
    .target(name: "Spawn", dependencies: ["Posix"]),
    // The global executor of the `shieldbridge` binary: a thread pool that sleeps while idle.
    .target(name: "Executor", dependencies: ["Spawn"]),
    // Double rounding in pure Swift calls into libm, which nothing else links for this module.
    .target(name: "JSON", linkerSettings: [.linkedLibrary("m")]),
    .target(name: "DBus", dependencies: ["CDBus", "Executor", "Posix", "Spawn"]),
    .target(name: "NotificationMarkup"),
    .target(
      name: "Notifications",
      dependencies: ["DBus", "Executor", "JSON", "NotificationMarkup", "Posix", "Spawn", "Version"]),
    .target(name: "DeepLink"),
    .target(name: "Localization", dependencies: ["JSON", "NotificationMarkup", "Posix"]),
    // What the service decides with, pure: rules, limits, downtime, the puzzle, the meter, the
    // ledger, history and report values; time and the calendar as values passed in, no Posix.
    .target(name: "Model", dependencies: ["DeepLink", "JSON", "Text", "Time"]),
    // The files the model is kept in: the ledger, history and weekly-summary files (locking,
    // atomic replace), the XDG folders, the system's clocks checked against the kernel's.
    .target(name: "Store", dependencies: ["JSON", "Model", "Posix", "Time"]),
    // Every decision of the service, pure: no bus, no desktop, no files, no clock of its own.
    .target(name: "ShieldCore", dependencies: ["Model", "DeepLink", "Log", "Time"]),
    .target(name: "Desktop", dependencies: ["Model", "CXCB", "DBus", "JSON", "Posix", "Spawn"]),
    // config.json: reading, checking and editing it, and today's rules in force beside it.
    .target(name: "Config", dependencies: ["DeepLink", "Desktop", "JSON", "Model", "Posix", "Store"]),
    .target(
      name: "ShieldBridge",
      dependencies: [
        "Config", "DBus", "DeepLink", "Desktop", "JSON", "Localization", "Log", "Model", "Notifications", "Posix",
        "ShieldCore", "Spawn", "Store", "Version",
      ]
    ),
    // `shieldbridge native-host`: the browser extension's other process, a client of the service.
    .target(
      name: "NativeHost",
      dependencies: [
        "Config", "DBus", "JSON", "Localization", "Log", "Model", "Posix", "ShieldBridge", "ShieldCore", "Spawn",
        "Store",
      ]
    ),
    // `shieldbridge demo`: a private bus, Xvfb with i3 and the service, outside the shipped library.
    .target(
      name: "ShieldBridgeDemo",
      dependencies: [
        "Config", "DBus", "Desktop", "JSON", "Localization", "Log", "Model", "Notifications", "Posix", "ShieldBridge",
        "Spawn", "Store",
      ]
    ),
    .target(
      name: "ShieldBridgeCLI",
      dependencies: [
        "Config", "DBus", "DeepLink", "Desktop", "JSON", "Localization", "Log", "Model", "NativeHost",
        "NotificationMarkup", "Notifications", "Posix", "ShieldBridge", "ShieldBridgeDemo", "Spawn", "Store", "Version",
      ]
    ),
    // What the release link of `shieldbridge` leaves out of the Swift runtime: the Unicode scalar
    // names (a C stand-in for their two lookups); the unwind tables and the file room of the
    // backtracer buffers (a linker script).
    .target(name: "RuntimeTrim", exclude: ["trim.ld"]),
    // The shipped binary's size (docs/developing/benchmarks.md, "Size"): linked by lld with identical code
    // folded, relative relocations packed (glibc 2.36 and later read them) and no exported symbols;
    // and bound at start (-z now), as Debian's hardening asks. Without unwind tables, and with the
    // runtime's scalar-name lookups sent to RuntimeTrim's stand-ins, whose tables then go.
    .executableTarget(
      name: "shieldbridge", dependencies: ["Executor", "RuntimeTrim", "ShieldBridgeCLI"],
      linkerSettings: [
        .unsafeFlags(
          [
            "-use-ld=lld", "-Xlinker", "--icf=all", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
            "-Xlinker", "--no-export-dynamic", "-Xlinker", "-z", "-Xlinker", "now",
            "-Xlinker", "-T", "-Xlinker", Context.packageDirectory + "/Sources/RuntimeTrim/trim.ld",
            "-Xlinker", "--wrap=_swift_stdlib_getScalarName", "-Xlinker", "--wrap=_swift_stdlib_getNameAlias",
          ], .when(configuration: .release))
      ]),
    .executableTarget(
      name: "ShieldBridgeBenchmarks",
      dependencies: [
        "Config", "DBus", "DeepLink", "Localization", "Model", "Notifications", "Posix", "ShieldBridge", "Spawn",
        "Store",
      ],
      path: "benchmarks/ShieldBridgeBenchmarks"
    ),
    .target(name: "TestSupport", dependencies: ["DBus", "Desktop", "Posix", "Spawn"], path: "Tests/TestSupport"),
    .testTarget(name: "PosixTests", dependencies: ["Posix"]),
    .testTarget(name: "LogTests", dependencies: ["Log"]),
    .testTarget(name: "DBusTests", dependencies: ["DBus", "Spawn", "TestSupport"]),
    .testTarget(name: "JSONTests", dependencies: ["JSON"]),
    .testTarget(name: "SpawnTests", dependencies: ["Spawn", "TestSupport"]),
    .testTarget(name: "ExecutorTests", dependencies: ["Executor"]),
    .testTarget(
      name: "NotificationsTests",
      dependencies: ["DBus", "JSON", "NotificationMarkup", "Notifications", "Spawn", "TestSupport", "Version"]
    ),
    .testTarget(name: "DeepLinkTests", dependencies: ["DeepLink", "Posix", "Spawn", "TestSupport"]),
    .testTarget(name: "LocalizationTests", dependencies: ["Localization", "Spawn", "TestSupport"]),
    .testTarget(name: "ModelTests", dependencies: ["DeepLink", "JSON", "Model", "Posix", "Store", "TestSupport"]),
    .testTarget(name: "ShieldCoreTests", dependencies: ["Model", "DeepLink", "Log", "Posix", "ShieldCore"]),
    .testTarget(
      name: "DesktopTests",
      dependencies: ["CXCB", "DBus", "Desktop", "JSON", "Model", "Posix", "Spawn", "Store", "TestSupport"]
    ),
    .testTarget(
      name: "ShieldBridgeTests",
      dependencies: [
        "Config", "DBus", "DeepLink", "Desktop", "JSON", "Localization", "Log", "Model", "Notifications", "Posix",
        "ShieldBridge", "ShieldBridgeCLI", "ShieldBridgeDemo", "ShieldCore", "Spawn", "Store", "TestSupport",
      ]
    ),
    .testTarget(name: "NativeHostTests", dependencies: ["JSON", "NativeHost", "Posix", "Spawn", "TestSupport"]),
    .testTarget(
      name: "ShieldBridgeCLITests",
      dependencies: [
        "Config", "DBus", "Desktop", "JSON", "Localization", "Model", "Notifications", "ShieldBridge",
        "ShieldBridgeCLI", "Store", "Version",
      ]),
  ]
)

// The same language settings for every target, so that no module lags behind.
for target in package.targets where target.type != .system {
  target.swiftSettings =
    (target.swiftSettings ?? []) + [
      .swiftLanguageMode(.v6),
      .enableUpcomingFeature("ExistentialAny"),
      .enableUpcomingFeature("InferIsolatedConformances"),
      .unsafeFlags(["-warnings-as-errors"]),
    ]
}

// The shipped modules do without the standard library's string processing (regexes and the
// string algorithms of `_StringProcessing`), which every module imports unless told not to: one
// import links it and `_RegexParser` into the binary (docs/developing/benchmarks.md, "Size"). Posix has the
// two operations they use (`includes`, `replacingAll`).
for target in package.targets
where target.path == nil && (target.type == .regular || target.type == .executable) {
  target.swiftSettings =
    (target.swiftSettings ?? []) + [.unsafeFlags(["-Xfrontend", "-disable-implicit-string-processing-module-import"])]
}

// The modules no measured path runs hot in are optimised for size in release builds; the link
// parser (DeepLink) and the Posix and JSON it reads and writes with keep -O (docs/developing/benchmarks.md,
// "Size").
let hotModules: Set = ["DeepLink", "JSON", "Posix"]
for target in package.targets where target.type == .regular && !hotModules.contains(target.name) {
  target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-Osize"], .when(configuration: .release))]
}

// A module's imports stay its own unless it says `public import`: the C modules
// (Glibc, CDBus) cannot leak into the API of the modules above them. Tests
// import what they test and export nothing.
for target in package.targets where target.type == .regular || target.type == .executable {
  target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("InternalImportsByDefault")]
}
