// The family's moderation tags that the reference API calls silenced and sensitized. Their own module:
// notification policies read them, and the admin operations that set them notify (no import circle).
export const SILENCE_TAG = "mrf_tag:force-unlisted";
export const SENSITIVE_TAG = "mrf_tag:media-force-nsfw";
