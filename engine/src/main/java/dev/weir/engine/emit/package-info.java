/**
 * What the engine emits: results ({@code WindowResult}) and late events ({@code LateEvent}), read-only
 * flyweights reused for every output, which give the key as text ({@code KeyText}) and the numbers at the value's
 * scale; the listeners an application implements; and {@code OutputJournalSink}, which writes every output to the
 * output journal exactly once (verifying the outputs a recovery reproduces) before it reaches the listeners.
 * <p>
 * Threading: outputs are emitted, and listeners called, on the last stage's thread; a flyweight is valid
 * only during the call.
 * <p>
 * Depends on the journal, {@code fired} (the fields the engine fills), {@code expr} (the key columns) and
 * {@code aggregate} (the names and scales of named aggregates).
 */
package dev.weir.engine.emit;
