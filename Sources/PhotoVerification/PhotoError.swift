import MorningProofCore

/// Why a photo or a bed model could not be used, with the file concerned.
public typealias PhotoError = FileError<PhotoProblem>

/// What went wrong with a photo or a bed model.
public enum PhotoProblem: Sendable, Equatable {
    /// The file does not exist.
    case noSuchFile
    /// The file exists but cannot be read.
    case unreadable
    /// The bytes are not a JPEG, PNG, HEIC or WebP image (empty, another format, a folder).
    case notAnImage
    /// An image that ends early or is corrupt.
    case damaged
    /// An image refused while decoding as too big for the limits (scans, memory).
    case refused
    /// An image whose header claims more pixels than the caller's limit: refused before decoding
    /// (a front end may say how to raise the limit).
    case tooManyPixels
    /// A bed model file that is not a valid model.
    case badModel
}

extension PhotoProblem: FileProblem {
    /// A missing photo is 66, one that cannot be read 74, any other 65; the server answers every
    /// photo it was sent that cannot be used with 400 `bad_image`.
    public var errorKind: MorningProofError.Kind {
        switch self {
        case .noSuchFile: .noInput
        case .unreadable: .ioError
        case .notAnImage, .damaged, .refused, .tooManyPixels, .badModel: .dataError
        }
    }

    public var errorCode: String? { "bad_image" }

    /// Over the pixel limit: where the person sets the limit, how to raise it.
    public var errorHint: ErrorHint? { self == .tooManyPixels ? .raisePixelLimit : nil }
}
