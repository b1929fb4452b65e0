import Foundation
import MorningProofCore
import PhotoVerification

/// A photo to judge: the bytes of an upload, or a file on disk.
public enum PhotoInput: Sendable {
    /// Bytes that arrived (a request's body or a form's file part): messages call them "the photo".
    case bytes(Data)
    /// A file, named in messages as given.
    case file(path: String)
}

/// How photos are judged: the verifier (its bed model and threshold) and the most pixels decoded.
public struct PhotoJudging: Sendable {
    public var verifier: BedVerifier
    /// Pixels decoded at most, read from the header before decoding.
    public var maxPixels: Int

    public init(verifier: BedVerifier = BedVerifier(), maxPixels: Int = ImageDecoder.defaultMaxPixels) {
        self.verifier = verifier
        self.maxPixels = maxPixels
    }

    /// An upload's: the built-in model, at most 50 megapixels. A server does not decode
    /// 100-megapixel PNGs for anyone who asks.
    public static let upload = PhotoJudging(maxPixels: 50_000_000)

    /// Decodes, measures and judges `photo`; with `fingerprint` (a proof needs it) also takes the
    /// SHA-256 of its bytes; with `scene` (a habit with reference photos needs it) also measures its
    /// scene. Throws `PhotoError` for a photo that cannot be read.
    public func judge(_ photo: PhotoInput, fingerprint: Bool, scene: Bool = false) throws -> PhotoJudgement {
        switch photo {
        case .bytes(let data):
            try verifier.verify(
                data: data, name: "the photo", maxPixels: maxPixels, fingerprint: fingerprint, scene: scene)
        case .file(let path):
            try verifier.verify(path: path, maxPixels: maxPixels, fingerprint: fingerprint, scene: scene)
        }
    }

    /// Judges `photos` at once on at most `workers` threads; the results come back in their order,
    /// each a judgement or why that photo could not be judged (the others are judged all the same).
    public func judge(_ photos: [PhotoInput], workers: Int, fingerprint: Bool, scene: Bool = false)
        -> [Result<PhotoJudgement, any Error>]
    {
        ParallelMap.run(photos, workers: workers) { photo in
            Result { try judge(photo, fingerprint: fingerprint, scene: scene) }
        }
    }

    /// The scene signature of `photo`, as a reference photo keeps it, with the decoded size.
    /// Throws `PhotoError` for a photo that cannot be read.
    public func reference(_ photo: PhotoInput) throws -> (signature: SceneSignature, width: Int, height: Int) {
        let image: DecodedImage
        switch photo {
        case .bytes(let data):
            image = try ImageDecoder.decode(
                data: data, name: "the photo", workingLongSide: BedVerifier.workingLongSide, maxPixels: maxPixels)
        case .file(let path):
            image = try ImageDecoder.decode(
                path: path, workingLongSide: BedVerifier.workingLongSide, maxPixels: maxPixels)
        }
        return (SceneSignature(image.raster), image.info.width, image.info.height)
    }
}
