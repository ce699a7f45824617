/**
 * Masked session recording (issue 16 §3; README): the recorder hook the app root mounts (rrweb is loaded only when the
 * server has recording on) and the ops admin's recordings page with its replay.
 */
export { useSessionRecording } from './hooks/use-session-recording';
export { RecordingsPage } from './components/recordings-page';
