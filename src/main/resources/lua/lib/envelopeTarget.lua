--[[
  envelopeTarget (a fragment): the target of an envelope in its wire form (EnvelopeCodec: 0xDB, 3, flags,
  varint length + target, ...), without reading the rest.
    envelopeTarget(s, at)  the target of the envelope that starts at position at of s; nil when there is
                           no wire-form envelope there, or it is damaged
]]
-- @include lib/varint
local function envelopeTarget(s, at)
  local magic, version = string.byte(s, at, at + 1)
  if magic ~= 0xDB or version ~= 3 then return nil end
  local length, first = readVarint(s, at + 3)
  if not length or length < 0 or first + length - 1 > #s then return nil end
  return string.sub(s, first, first + length - 1)
end
