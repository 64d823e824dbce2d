/**
 * Images that tool calls give (read_file of a picture). A chat-completions tool result holds
 * text only, so the results go first, as text, and the images follow them in one user note;
 * a model that does not take images gets an error result instead, and a history with images
 * (sent before a switch of profiles) goes to it with a note in place of each image.
 *
 * @module
 */
import {
  describeImage,
  MAX_IMAGES,
  type MessageImage,
  NOTE_PREFIX,
  type ToolResult,
  type UserMessage,
} from "../core/mod.ts";
import type { ChatRequest } from "../model/mod.ts";
import type { ModelSlot } from "./model_slot.ts";

/** A call's result as the model gets it, and the image to send after the step's results. */
export interface SplitResult {
  result: ToolResult;
  image?: MessageImage;
}

/**
 * `result` for the model of `slot`: with its image taken out when the profile says the
 * model takes images, as an error saying so when it does not, or when the step's calls
 * already gave `slot.taken` images, the most one message carries.
 * Contract: pure; a result without an image comes back as it is.
 */
export function splitImage(
  result: ToolResult,
  slot: Pick<ModelSlot, "name" | "vision"> & { taken?: number },
): SplitResult {
  const { taken = 0 } = slot;
  const { image, ...rest } = result;
  if (image === undefined || result.isError) return { result: rest };
  if (slot.vision && taken < MAX_IMAGES) return { result: rest, image };
  const message = slot.vision
    ? `Cannot show the image: the calls of one step may show at most ${MAX_IMAGES} images; ` +
      "read the rest in the next step"
    : `Cannot show the image: the model of profile "${slot.name}" does not take images ` +
      '("vision": true in its provider.json profile says it does)';
  return { result: { content: `Error: ${message}`, summary: message, isError: true } };
}

/**
 * The user note carrying the images a step's tool calls gave, after their results.
 * Contract: pure; `images` is not empty.
 */
export function toolImagesNote(images: MessageImage[]): UserMessage {
  const which = images.length === 1 ? "The image" : `The ${images.length} images`;
  return {
    role: "user",
    content: `${NOTE_PREFIX}${which} read by the tool calls above:`,
    images,
  };
}

/**
 * `request` for a model that takes no images (profile `profile`): each image of its
 * messages replaced by a note after the message's text.
 * Contract: pure; a request without images comes back as it is.
 */
export function withoutImages(request: ChatRequest, profile: string): ChatRequest {
  if (!request.messages.some((message) => message.role === "user" && message.images)) {
    return request;
  }
  const messages = request.messages.map((message) => {
    if (message.role !== "user" || message.images === undefined) return message;
    const { images, ...rest } = message;
    const notes = images.map((image) =>
      `[image ${describeImage(image)} left out: profile "${profile}" has no "vision": true]`
    );
    return { ...rest, content: [message.content, ...notes].join("\n") };
  });
  return { ...request, messages };
}
