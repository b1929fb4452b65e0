import CImageCodecs
import Foundation
import MorningProofCore

/// Decodes JPEG, PNG, HEIC and WebP files into display-oriented RGB rasters through libjpeg(-turbo),
/// libpng, libheif and libwebp.
///
/// Damaged files (truncated, corrupt, bad CRC) throw `PhotoError` `.damaged`; headers over the pixel
/// budget `.tooManyPixels`; hostile progressive JPEGs `.refused`; a missing file `.noSuchFile`.
public enum ImageDecoder {
    /// The verifier's working size: the long side the scaled raster must at least reach.
    public static let defaultWorkingLongSide = 512
    /// The largest image (width x height, as the header claims) decoded by default: 100 megapixels.
    public static let defaultMaxPixels = 100_000_000
    /// More progressive scans than this marks a JPEG as hostile or broken (real files have about 10).
    public static let maxProgressiveScans = 100

    /// Decodes the file at `path` at the smallest of 1/8, 1/4, 1/2 or full size whose long side is at least
    /// `workingLongSide` (0: full size), turned upright by its EXIF orientation (a HEIC by its own boxes).
    /// JPEG is scaled while decoding; PNG, HEIC and WebP are decoded whole, then shrunk.
    public static func decode(
        path: String, workingLongSide: Int = defaultWorkingLongSide, maxPixels: Int = defaultMaxPixels
    ) throws -> DecodedImage {
        try decode(data: read(path), name: name(of: path), workingLongSide: workingLongSide, maxPixels: maxPixels)
    }

    /// Decodes the file at `path` at full size (for `image info`'s channel means).
    public static func decodeFullSize(path: String, maxPixels: Int = defaultMaxPixels) throws -> DecodedImage {
        try decode(path: path, workingLongSide: 0, maxPixels: maxPixels)
    }

    /// Reads only the header and EXIF of the file at `path`: no pixels are decoded.
    public static func info(path: String, maxPixels: Int = defaultMaxPixels) throws -> ImageInfo {
        try info(data: read(path), name: name(of: path), maxPixels: maxPixels)
    }

    /// Decodes image bytes; `name` is used in error messages.
    public static func decode(
        data: Data, name: String = "image", workingLongSide: Int = defaultWorkingLongSide,
        maxPixels: Int = defaultMaxPixels
    ) throws -> DecodedImage {
        let format = try sniff(data, name: name)
        var limits = mpimg_limits(
            working_long_side: Int32(clamping: max(0, workingLongSide)), max_pixels: UInt64(max(0, maxPixels)),
            max_scans: Int32(maxProgressiveScans))
        return try data.withUnsafeBytes { raw -> DecodedImage in
            let bytes = raw.bindMemory(to: UInt8.self)
            switch format {
            case .jpeg: return try decodeJPEG(bytes, name: name, limits: &limits)
            case .png, .heic, .webp:
                return try decodeWhole(
                    bytes, format: format, name: name, limits: &limits, workingLongSide: workingLongSide)
            }
        }
    }

    /// Reads the header and EXIF of image bytes; `name` is used in error messages.
    public static func info(data: Data, name: String = "image", maxPixels: Int = defaultMaxPixels) throws
        -> ImageInfo
    {
        let format = try sniff(data, name: name)
        var limits = mpimg_limits(working_long_side: 0, max_pixels: UInt64(max(0, maxPixels)), max_scans: 0)
        return try data.withUnsafeBytes { raw -> ImageInfo in
            var header = mpimg_info()
            let exif = try readInfo(
                raw.bindMemory(to: UInt8.self), format: format, name: name, limits: &limits, header: &header)
            return makeInfo(format, header, exif: exif)
        }
    }

    // MARK: - JPEG

    private static func decodeJPEG(_ bytes: UnsafeBufferPointer<UInt8>, name: String, limits: inout mpimg_limits)
        throws -> DecodedImage
    {
        var header = mpimg_info()
        let exif = try readInfo(bytes, format: .jpeg, name: name, limits: &limits, header: &header)
        let count = Int(header.output_width) * Int(header.output_height) * 3
        var decoded = header
        var failure: PhotoError?
        let pixels = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            failure = call(name: name, format: .jpeg, header: &decoded) { info, message in
                mpimg_jpeg_decode(
                    bytes.baseAddress, bytes.count, &limits, info, buffer.baseAddress, count, message,
                    messageCapacity)
            }
            initialized = count
        }
        if let failure { throw failure }
        let info = makeInfo(.jpeg, header, exif: exif)
        let raster = Raster(width: Int(header.output_width), height: Int(header.output_height), pixels: pixels)
        return DecodedImage(raster: raster.oriented(info.orientation), info: info, scale: Int(header.scale_denom))
    }

    /// The header (the pixel budget checked) and the EXIF of a file of any format: no pixel is decoded.
    /// A HEIC's EXIF orientation is left out: libheif turns the picture as its own boxes (irot, imir)
    /// say, and the EXIF orientation only repeats them.
    static func readInfo(
        _ bytes: UnsafeBufferPointer<UInt8>, format: ImageFormat, name: String, limits: inout mpimg_limits,
        header: inout mpimg_info
    ) throws -> ExifMetadata {
        var exif = [UInt8](repeating: 0, count: format == .png ? 1 : Int(MPIMG_EXIF_CAPACITY))
        let capacity = exif.count
        try check(
            call(name: name, format: format, header: &header) { info, message in
                let (data, size) = (bytes.baseAddress, bytes.count)
                return switch format {
                case .jpeg:
                    mpimg_jpeg_read_info(data, size, &limits, info, &exif, capacity, message, messageCapacity)
                case .png: mpimg_png_read_info(data, size, &limits, info, message, messageCapacity)
                case .heic:
                    mpimg_heif_read_info(data, size, &limits, info, &exif, capacity, message, messageCapacity)
                case .webp:
                    mpimg_webp_read_info(data, size, &limits, info, &exif, capacity, message, messageCapacity)
                }
            })
        var metadata = ExifMetadata(tiff: Array(exif.prefix(header.exif_length)))
        if format == .heic { metadata.orientation = nil }
        return metadata
    }

    // MARK: - PNG, HEIC and WebP: decoded whole, then shrunk

    private static func decodeWhole(
        _ bytes: UnsafeBufferPointer<UInt8>, format: ImageFormat, name: String, limits: inout mpimg_limits,
        workingLongSide: Int
    ) throws -> DecodedImage {
        var header = mpimg_info()
        let exif = try readInfo(bytes, format: format, name: name, limits: &limits, header: &header)
        let count = Int(header.width) * Int(header.height) * 3
        var failure: PhotoError?
        let pixels = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            failure = call(name: name, format: format, header: &header) { info, message in
                let (data, size, out) = (bytes.baseAddress, bytes.count, buffer.baseAddress)
                return switch format {
                case .heic: mpimg_heif_decode(data, size, &limits, info, out, count, message, messageCapacity)
                case .webp: mpimg_webp_decode(data, size, &limits, info, out, count, message, messageCapacity)
                case .png, .jpeg: mpimg_png_decode(data, size, &limits, info, out, count, message, messageCapacity)
                }
            }
            initialized = count
        }
        if let failure { throw failure }
        let info = makeInfo(format, header, exif: exif)
        let scale = scaleFactor(width: info.width, height: info.height, workingLongSide: workingLongSide)
        let raster = Raster(width: info.width, height: info.height, pixels: pixels).reduced(by: scale)
        return DecodedImage(raster: raster.oriented(info.orientation), info: info, scale: scale)
    }

    /// The smallest of 1/8, 1/4, 1/2 and 1 whose long side still covers `workingLongSide` (as libjpeg's
    /// scaling is chosen in the C shim), as a divisor.
    static func scaleFactor(width: Int, height: Int, workingLongSide: Int) -> Int {
        guard workingLongSide > 0 else { return 1 }
        let longSide = max(width, height)
        for factor in [8, 4, 2] where (longSide + factor - 1) / factor >= workingLongSide { return factor }
        return 1
    }
}
