import FPLocalAPI
import FPVocabulary

extension ReaderReport.Reader {
    /// The heat as the model's value, for planning rests (the service sends the ratio and
    /// whether libfprint holds the reader as hot, which outlasts the ratio's fall below the cut-off).
    var readerHeat: ReaderHeat {
        ReaderHeat(ratio: heat ?? ReaderHeat.coldThreshold, hot: temperature == .hot || usableInSeconds > 0)
    }
}
