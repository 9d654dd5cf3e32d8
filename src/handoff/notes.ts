/**
 * The trailing block of a handoff that holds what the model wrote outside the five sections. The block
 * is the same for every frozen document, so it is defined with them (documents/notes.ts).
 */
export { NOTES_HEADING, NOTES_ALIASES } from "../documents/notes.js";
