/// What the clock does while a player waits for a frame that has not
/// arrived (a ``ProgressiveFrameSource`` still downloading).
///
/// Either way the last frame that arrived stays shown, the player reports
/// ``PlayerEvent/waitingForFrame(frame:)`` when its time runs out and
/// ``PlayerEvent/waitEnded(waited:)`` when the frame is there, and
/// ``Playhead/isWaiting`` says so in between. The policies differ in what
/// comes after.
public enum WaitPolicy: Sendable, Hashable {
    /// Stop the animation's clock while waiting and go on from the arrival:
    /// the frame that was late is shown in full from the moment it is there
    /// (the first time passed in after it arrived), and every later frame
    /// keeps its own duration. The whole animation is shifted by the wait.
    /// This is what browsers do with a GIF still loading (Chromium and
    /// Firefox keep the last complete frame on screen and animate on from
    /// when the next one decodes), and the default.
    case resumeFromArrival

    /// Keep the schedule the animation would have had with every byte in
    /// hand: while waiting, time into the last frame keeps running; when
    /// frames arrive, the player jumps to the frame the clock says (under
    /// its ``CatchUpPolicy``), skipping those whose time has passed. Players
    /// sharing an epoch stay in step with copies that had all their frames.
    case keepSchedule

    /// The browser behaviour and the default: ``resumeFromArrival``.
    public static let browser = WaitPolicy.resumeFromArrival
}
