--[[
  memberIdsProbe: for tests only (MemberIdsTest), lib/memberIds called directly.

  KEYS[1] names  HASH  a names hash (lib/nameCodes)

  ARGV[1] what to do with each further argument:
          "toMember"      { member, toId(member) or false, lookupMembers(id)[1] } per id (writes codes, like schedule.lua)
          "lookupMember"  { lookupMembers(id)[1] } per id: the first member looked under (writes nothing)
          "toId"          { toId(member) or false } per member
  ARGV[2..] ids, or members

  Returns: the values described above, flattened, in order
]]
-- @include lib/memberIds
local codes = nameCodes(KEYS[1])
codes.capAt(10000, 1048576) -- the default cap (store/NameLimits)
local ids = memberIds(codes)
local result = {}
for i = 2, #ARGV do
  if ARGV[1] == 'toMember' then
    local member = ids.toMember(ARGV[i])
    result[#result + 1] = member
    result[#result + 1] = ids.toId(member) or false
    result[#result + 1] = ids.lookupMembers(ARGV[i])[1]
  elseif ARGV[1] == 'lookupMember' then
    result[#result + 1] = ids.lookupMembers(ARGV[i])[1]
  else
    result[#result + 1] = ids.toId(ARGV[i]) or false
  end
end
return result
