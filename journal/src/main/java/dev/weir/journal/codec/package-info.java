/**
 * The bytes of the journal's documents. {@link dev.weir.journal.codec.DocumentType} holds the type codes (the
 * first byte of every document, and the version of its layout). Each document type has one flyweight encoder and
 * one decoder that write and read its fields in place (EventEncoder/EventDecoder, ResultEncoder/ResultDecoder,
 * LateEventEncoder/LateEventDecoder, IngestStartEncoder/IngestStartDecoder, RejectedLineEncoder/RejectedLineDecoder,
 * TableRowEncoder/TableRowDecoder (a reference table's row), and {@link dev.weir.journal.codec.Heartbeat}); each layout's field offsets are named constants of its encoder, which
 * its decoder reads by. {@link dev.weir.journal.codec.EventShape} is an event's layout in a schema. The rest is what a
 * decoder hands over: {@link dev.weir.journal.codec.EventConsumer}, {@link dev.weir.journal.codec.ResultFields} and
 * {@link dev.weir.journal.codec.ResultKind}, {@link dev.weir.journal.codec.LateFields},
 * {@link dev.weir.journal.codec.OutputDecoder} (either document of the output journal), and
 * {@link dev.weir.journal.codec.StringDefinitions} (which string ids a scan has seen defined).
 * <p>
 * Threading: encoders and decoders are flyweights of one owner thread; the type codes and result kinds are
 * constants, thread-safe.
 * <p>
 * Depends on {@code dev.weir.journal.schema} only; the journal itself ({@code dev.weir.journal}) is built on it.
 */
package dev.weir.journal.codec;
