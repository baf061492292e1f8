/**
 * The example fixture of openapi/README.md: every UUID an example may use, with the name it
 * stands for. Examples that agree on these make a mock that serves only examples coherent.
 */
export const fixtureIds: Record<string, string> = {
  '6a1f0c3e-2b4d-4f8a-9c1e-5d7b3a2f1e09': 'organization Northwind Outreach',
  '9e4b2c7d-1a3f-4e5b-8c6d-2f7a9b1c3e5d': 'user (deal owner)',
  '3c9e7a52-8f14-4d6b-a1e3-5b2c7d9f0a14': 'campaign Q4 Founders Outreach',
  '7d2f4b81-6c3a-4e9d-b5f2-8a1c3e6d9b27': 'campaign EMEA Expansion',
  '0e5a9c3f-7b1d-4f6a-9e2c-8d4b1a7f3e60': 'campaign Fintech CFOs',
  '5b8d1e3f-7a2c-4d6e-9f1b-3c5a7e9d2b40': 'lead Maya Patel',
  'c4a7e2d9-5f3b-4c8a-a6e1-9d2b7f4c1e83': 'sequence lead of Maya Patel in Q4 Founders Outreach',
  '8e1c5a9d-3b7f-4a2e-8d6c-1f9b4e7a3c52': 'lead Jonas Weber',
  '6f3b8d2a-9c4e-4b7f-a1d5-2e8c6f9a3b17': 'sequence lead of Jonas Weber in Q4 Founders Outreach',
  'e7f3a9c1-4d2b-4e6f-8a5c-7b1d3f9e2a64': 'webhook of Q4 Founders Outreach',
  '9c2e5b8f-1d4a-4c7e-b3f6-8a5d2c9e4b71': 'AI field icebreaker',
  '2f6b9d4e-8a1c-4f3e-b7d2-5c9a1e4f8b36': 'pipeline New Business',
  '4d8a2c6e-1f5b-4e9a-8c3d-7b2f6a1e5c49': 'pipeline Partnerships',
  'a1d4f7b2-3e6c-4a9f-8b5d-2c7e1f4a9d63': 'stage Qualified',
  'b2e5a8c3-4f7d-4b1a-9c6e-3d8f2a5b1e74': 'stage Meeting booked',
  'c3f6b9d4-5a8e-4c2b-8d7f-4e9a3b6c2f85': 'stage Proposal',
  'd4a7c1e5-6b9f-4d3c-a8e2-5f1b4c7d3a96': 'stage Closed won',
  'f6c9e3a7-8d2b-4f5e-b1a4-7c3d6e9f5b18': 'stage Closed lost',
  '1a5c8e2f-9b3d-4e7a-8f6c-4b2d9e1a7c35': 'deal Acme Robotics pilot',
  '3d9f1b7e-5c2a-4e8d-b6f3-9a1c7e4d2b58': 'lead Sofia Russo',
  'a8e2c6f4-1b9d-4a3e-8c5f-6d2b9e7a1c34': 'sequence lead of Sofia Russo in Q4 Founders Outreach',
  '0b3e6a9c-2d5f-4e8a-9c1b-6f4a2d8e5c07': 'a stage of another organization (INVALID_STAGE examples)',
  '2b7e4a9c-6d1f-4c8b-9e3a-5f2d8b1c7a46': 'meeting booking of Maya Patel',
  '7c1f5b3e-8a2d-4e6c-b9f4-3a7e1d5c9b28': 'confirmation booking of Jonas Weber',
};
