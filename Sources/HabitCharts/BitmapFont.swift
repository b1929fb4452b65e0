/// A 5x8 bitmap font for printable ASCII, drawn by the chart renderer (there is no font library).
/// Each glyph is 8 rows (7 for the body, 1 for descenders) of 5 pixels; each row is one base-32 digit
/// whose bits, from 16 down to 1, are the pixels from left to right.
enum BitmapFont {
    static let width = 5
    static let height = 8
    /// Pixels from one glyph's left edge to the next's.
    static let advance = 6

    private static let rows: [UInt8] = {
        let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUV".utf8)
        return Array(glyphs.joined().utf8).map { UInt8(alphabet.firstIndex(of: $0)!) }
    }()

    /// Glyphs for U+0020 to U+007E, twelve to a line.
    private static let glyphs = [
        "0000000044444040AAA00000AAVAVAA04FKE5U40OP248J30CIK8LID044800000248884208422248004LEL400044V4400",
        "0000C480000V000000000CC001248G00EHJLPHE04C4444E0EH1248V0V2421HE026AIV220VGU11HE068GUHHE0V1248880",
        "EHHEHHE0EHHF12C00CC0CC000CC0C480248G842000V0V00084212480EH124040EH1DLLE0EHHVHHH0UHHUHHU0EHGGGHE0",
        "SIHHHIS0VGGUGGV0VGGUGGG0EHGNHHF0HHHVHHH0E44444E072222IC0HIKOKIH0GGGGGGV0HRLLHHH0HHPLJHH0EHHHHHE0",
        "UHHUGGG0EHHHLID0UHHUKIH0FGGE11U0V4444440HHHHHHE0HHHHHA40HHHLLLA0HHA4AHH0HHA44440V1248GV0E88888E0",
        "0G842100E22222E04AH00000000000V08420000000E1FHF0GGMPHHU000EGGHE011DJHHF000EHVGE0698S888000FHHF1E",
        "GGMPHHH040C444E0206222ICGGIKOKI0C44444E000QLLHH000MPHHH000EHHHE000UHHUGG00FHHF1100MPGGG000EGE1U0",
        "88S8896000HHHJD000HHHA4000HHLLA000HA4AH000HHHF1E00V248V0244844204444444084424480008L2000",
    ]

    /// Whether the pixel at (`column`, `row`) of `character`'s glyph is set; characters without a glyph draw as `?`.
    static func isSet(_ character: Unicode.Scalar, column: Int, row: Int) -> Bool {
        let code = (32...126).contains(character.value) ? Int(character.value) : 63
        return rows[(code - 32) * height + row] & (16 >> column) != 0
    }

    /// The width of `text` in pixels at `scale`, without the space after the last glyph.
    static func width(of text: String, scale: Int) -> Int {
        let count = text.unicodeScalars.count
        return count == 0 ? 0 : (count * advance - 1) * scale
    }
}
