import CImageCodecs
import Foundation
import MorningProofCore

extension ImageDecoder {
    /// The file's info and the mean of each RGB channel (0 to 255) over the full-size image.
    /// A JPEG is decoded row by row and never held whole, so this needs little memory; a PNG, HEIC or
    /// WebP is decoded whole. Orientation moves pixels but does not change a mean.
    public static func channelMeans(path: String, maxPixels: Int = defaultMaxPixels) throws -> (
        info: ImageInfo, mean: [Double]
    ) {
        let data = try read(path)
        let name = name(of: path)
        guard try sniff(data, name: name) == .jpeg else {
            let decoded = try decode(data: data, name: name, workingLongSide: 0, maxPixels: maxPixels)
            return (decoded.info, decoded.raster.channelMeans())
        }
        var limits = mpimg_limits(
            working_long_side: 0, max_pixels: UInt64(max(0, maxPixels)), max_scans: Int32(maxProgressiveScans))
        return try data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            var header = mpimg_info()
            let exif = try readInfo(bytes, format: .jpeg, name: name, limits: &limits, header: &header)
            var sums: [UInt64] = [0, 0, 0]
            try check(
                call(name: name, format: .jpeg, header: &header) { info, message in
                    mpimg_jpeg_channel_sums(
                        bytes.baseAddress, bytes.count, &limits, info, &sums, message, messageCapacity)
                })
            let count = Double(max(1, Int(header.output_width) * Int(header.output_height)))
            return (makeInfo(.jpeg, header, exif: exif), sums.map { Double($0) / count })
        }
    }
}
