import ReceiveSources

/// How `receive`'s notes and errors name a source's picture, by where it comes from.
extension ReceivedPicture {
  /// Whose picture it is, in `--region`'s error: "the video's".
  var owner: String {
    switch origin {
    case .video: "the video's"
    case .camera: "the camera's"
    }
  }

  /// The time watched, in the closing note: "2.0 s of video", "2.0 s watched".
  func watched(_ seconds: String) -> String {
    switch origin {
    case .video: "\(seconds) of video"
    case .camera: "\(seconds) watched"
    }
  }

  /// What the closing note says when no frame came.
  var noFrame: String {
    switch origin {
    case .video: "the video holds no frame after its header"
    case .camera: "the camera gave no frame"
    }
  }
}
