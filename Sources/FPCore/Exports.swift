// Finger and ReaderIdentity moved down to the vocabulary that clients of the service share;
// every user of this module still gets them (and the rest of the vocabulary) from it.
@_exported import FPVocabulary
