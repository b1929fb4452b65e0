/// What `morningproof image info` reports about an image file: its header, EXIF and layout.
public struct ImageInfo: Sendable, Codable, Equatable {
    /// The format recognised from the first bytes.
    public var format: ImageFormat
    /// Width and height as stored in the file, before orientation.
    public var width: Int
    public var height: Int
    /// EXIF orientation, 1 (upright) to 8; 1 when the file has none.
    public var orientation: Int
    /// Width and height as displayed, after orientation (swapped for orientations 5 to 8).
    public var displayWidth: Int
    public var displayHeight: Int
    /// The stored colour model: "Gray", "Gray+Alpha", "RGB", "RGBA", "Palette", "YCbCr", "CMYK", "YCCK".
    public var colorSpace: String
    /// Bits per sample as stored (JPEG: 8; PNG: 1, 2, 4, 8 or 16).
    public var bitDepth: Int
    /// A progressive (multi-scan) JPEG.
    public var progressive: Bool
    /// An Adam7-interlaced PNG.
    public var interlaced: Bool
    /// EXIF DateTimeOriginal exactly as written ("YYYY:MM:DD HH:MM:SS"), or nil.
    public var captureTime: String?
    /// EXIF OffsetTimeOriginal exactly as written ("+01:00"), or nil.
    public var captureOffset: String?

    public init(
        format: ImageFormat, width: Int, height: Int, orientation: Int, colorSpace: String, bitDepth: Int,
        progressive: Bool, interlaced: Bool, captureTime: String? = nil, captureOffset: String? = nil
    ) {
        self.format = format
        self.width = width
        self.height = height
        self.orientation = orientation
        let swaps = orientation >= 5 && orientation <= 8
        self.displayWidth = swaps ? height : width
        self.displayHeight = swaps ? width : height
        self.colorSpace = colorSpace
        self.bitDepth = bitDepth
        self.progressive = progressive
        self.interlaced = interlaced
        self.captureTime = captureTime
        self.captureOffset = captureOffset
    }
}

/// A decoded image: pixels turned upright for display, and the file's info.
public struct DecodedImage: Sendable {
    /// Display-oriented RGB pixels, shrunk by `scale` (1, 2, 4 or 8) from the stored size.
    public let raster: Raster
    /// The file's header and EXIF facts (stored size, orientation, capture time...).
    public let info: ImageInfo
    /// How many times smaller than stored the raster is (libjpeg DCT scaling, or a box filter for PNG).
    public let scale: Int

    public init(raster: Raster, info: ImageInfo, scale: Int) {
        self.raster = raster
        self.info = info
        self.scale = scale
    }
}
