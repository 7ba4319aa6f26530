/// Text made safe for HTML element content and attribute values.
enum HTMLText {
    static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            // Control characters other than tab and line ends have no place in a page.
            case _ where character.value < 0x20 && character != "\t" && character != "\n" && character != "\r": continue
            default: result.unicodeScalars.append(character)
            }
        }
        return result
    }

    /// An `id` attribute for a notification ID (IDs are `[A-Za-z0-9._-]`, which HTML takes as is).
    static func anchor(_ id: String) -> String { "n-" + escape(id) }

    /// The page frame every remindc HTML file shares: no scripts, no fonts or styles from
    /// the network.
    static func page(title: String, style: String, body: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(escape(title))</title>
        <style>
        \(style)
        </style>
        </head>
        <body>
        \(body)
        </body>
        </html>

        """
    }

    /// Styles both pages share: kinds told apart by colour and by border pattern, faded
    /// entries hatched, print in black on white.
    static let sharedStyle = """
    body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em; color: #111; background: #fff; }
    h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 1.5em; }
    .kind-single { background: #e8eefc; border-left: 4px solid #2a4fb0; }
    .kind-group { background: #e3f6f3; border-left: 4px double #117a6a; }
    .kind-followUp { background: #fdf4dc; border-left: 4px dashed #9a6a00; }
    .kind-snooze { background: #f6e6f8; border-left: 4px dotted #8a2a99; }
    .status-suppressed, .status-dropped { opacity: 0.55; background-image: repeating-linear-gradient(45deg, transparent 0 6px, rgba(0,0,0,0.08) 6px 8px); }
    .status-dropped { text-decoration: line-through; }
    .label { font-size: 0.8em; font-weight: 600; text-transform: uppercase; letter-spacing: 0.03em; }
    @media print { body { margin: 0; } .n { break-inside: avoid; } }
    @media (prefers-color-scheme: dark) {
      body { color: #eee; background: #121212; }
      .kind-single { background: #1d2a4a; border-left-color: #7c9ef0; }
      .kind-group { background: #123a35; border-left-color: #4cc3ad; }
      .kind-followUp { background: #3a3016; border-left-color: #e0b040; }
      .kind-snooze { background: #3a2240; border-left-color: #d08ae0; }
      .status-suppressed, .status-dropped { background-image: repeating-linear-gradient(45deg, transparent 0 6px, rgba(255,255,255,0.1) 6px 8px); }
      a { color: #8ab4f8; }
    }
    """
}
