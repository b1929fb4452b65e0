import Foundation

/// The checkout these tests were built from, found from this file's own place in it
/// (Tests/TestFixtures/), so that every test reads the committed files the same way.
public enum Repository {
    /// The repository's root folder (the one that holds Package.swift).
    public static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `relative` under the root, such as `"openapi.yaml"` or `"scripts/postgres-cluster"`.
    public static func url(_ relative: String) -> URL { root.appendingPathComponent(relative) }

    /// The file system path of `relative` under the root.
    public static func path(_ relative: String) -> String { url(relative).path }

    /// Data that came from outside, kept in `../shared` beside the checkout and never copied into
    /// it; tests that read it skip where it is absent.
    public static func shared(_ relative: String) -> URL {
        root.deletingLastPathComponent().appendingPathComponent("shared").appendingPathComponent(relative)
    }
}

/// The fixtures this project made, under Tests/Fixtures (health files, hooks, charts, fuzz
/// inputs, quotes, Loop and harsh data).
public enum Fixtures {
    /// Tests/Fixtures.
    public static let folder = Repository.url("Tests/Fixtures")

    /// `relative` under Tests/Fixtures, such as `"hooks"` or `"quotes/seed-shape.json"`.
    public static func url(_ relative: String) -> URL { folder.appendingPathComponent(relative) }

    /// The file system path of `relative` under Tests/Fixtures.
    public static func path(_ relative: String) -> String { url(relative).path }
}

/// The committed photos under SampleImages/ (made by scripts/make-sample-images and
/// scripts/make-scenes): `scenes/`, `broken/`, `not-photos/` and the rest.
public enum SampleImages {
    /// SampleImages/.
    public static let folder = Repository.url("SampleImages")

    /// `relative` under SampleImages, such as `"scenes/made-1.jpg"`.
    public static func url(_ relative: String) -> URL { folder.appendingPathComponent(relative) }

    /// The file system path of `relative` under SampleImages.
    public static func path(_ relative: String) -> String { url(relative).path }
}
